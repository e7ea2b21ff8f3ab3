/**
 * A service a request needs (the store, a provider, the search database) cannot be reached.
 * It lives below both lib/http, which answers it with 503 `unavailable`, and the services that
 * raise it, so neither imports the other.
 */
export class ServiceUnavailableError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "ServiceUnavailableError";
  }
}
