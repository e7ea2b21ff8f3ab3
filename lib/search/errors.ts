/** Typed errors of the site search. */

/** The index asset is missing, truncated or from another format version. */
export class SearchUnavailableError extends Error {
  override name = "SearchUnavailableError";
}

/** The asset bytes do not form a valid index. */
export class AssetFormatError extends Error {
  override name = "AssetFormatError";
}

/** The corpus manifest or a corpus file is invalid; nothing was written. */
export class ManifestError extends Error {
  override name = "ManifestError";
}

/** An embedding provider is misconfigured or answered with something unusable. */
export class EmbedderError extends Error {
  override name = "EmbedderError";
}
