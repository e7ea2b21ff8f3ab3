/**
 * The `--details` file of the answer evals, made before the run: a path that cannot be
 * written fails at once, with the path, instead of after every question was asked.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** Creates the file's folder and the empty file; throws with the path when it cannot. */
export function prepareDetailsFile(path: string | undefined): void {
  if (!path) return;
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, "");
  } catch (error) {
    throw new Error(`Cannot write --details "${path}": ${(error as Error).message}`);
  }
}
