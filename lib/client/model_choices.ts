/** Which models the picker offers: only those a visitor can actually use. */
import type { ModelOption } from "./use_models.ts";

/** The picker's content: the models that can be chosen and how many more need a key. */
export interface ModelChoices {
  usable: ModelOption[];
  /** Models of the catalog that cannot answer here until the owner sets their key or URL. */
  needKey: number;
}

/**
 * Splits the catalog into usable models and a count of the rest: a visitor cannot set a key,
 * so listing every unconfigured model as a disabled option only buries the ones that work.
 */
export function modelChoices(models: readonly ModelOption[]): ModelChoices {
  const usable = models.filter((m) => m.available);
  return { usable, needKey: models.length - usable.length };
}

/** Whether to show a picker at all: with one usable model there is nothing to choose. */
export function showModelPicker(choices: ModelChoices): boolean {
  return choices.usable.length > 1;
}
