/**
 * `import()` of a module the pages must not wait for (issue 16, "Cold start").
 *
 * The specifier is resolved at run time on purpose. Deno prepares every `import()` whose
 * specifier it can read in the source before the main module runs (its graph is loaded,
 * its npm packages are set up): measured here, that put more time before the first page
 * than importing the chat stack statically. Today's Deno Deploy runs the uploaded project
 * as it is, so a module imported this way is there to load; the deploy check
 * (tests/integration/cold_start_test.ts) makes sure each such module exists.
 *
 * @example
 * const turn = await lazyImport<typeof import("./turn.ts")>(import.meta.resolve("./turn.ts"));
 */
export function lazyImport<T>(specifier: string): Promise<T> {
  return import(specifier);
}
