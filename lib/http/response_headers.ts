/**
 * Edits a response's headers in place, or on a copy when they are immutable (a
 * `Response.redirect`, a fetched response): middleware adds headers to whatever a route
 * returned without knowing how it was made.
 */
export function editHeaders(res: Response, edit: (headers: Headers) => void): Response {
  try {
    edit(res.headers);
    return res;
  } catch {
    const copy = new Response(res.body, res);
    edit(copy.headers);
    return copy;
  }
}
