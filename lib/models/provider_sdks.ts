/**
 * The AI SDK's provider packages and the offline model, loaded when a configured provider
 * first needs them rather than when the app starts: together they are a good part of a cold
 * start, and the offline model needs none of the packages (docs/cold-start.md).
 *
 * The imports are plain `import()`s: deno.json's `"unstable": ["lazy-dynamic-imports"]` makes
 * Deno load them when they run, not before main.ts starts (docs/cold-start.md).
 */
import type { createGoogle } from "@ai-sdk/google";
import type { createLocalModel } from "./local_model.ts";
import type { createOpenAI } from "@ai-sdk/openai";
import type { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { ModelFamily } from "./types.ts";

/** The factory of each model family the registry builds models with. */
export interface ProviderSdks {
  openai: typeof createOpenAI;
  google: typeof createGoogle;
  "openai-compatible": typeof createOpenAICompatible;
  /** The offline model (lib/models/local_model.ts), with its extractive answerer. */
  offline: typeof createLocalModel;
}

/** A model family whose module loads on demand (all of them). */
export type SdkFamily = keyof ProviderSdks;

const loaders: { [F in SdkFamily]: () => Promise<ProviderSdks[F]> } = {
  openai: async () =>
    (await import("@ai-sdk/openai"))
      .createOpenAI,
  google: async () =>
    (await import("@ai-sdk/google"))
      .createGoogle,
  "openai-compatible": async () =>
    (await import("@ai-sdk/openai-compatible")).createOpenAICompatible,
  offline: async () =>
    (await import("./local_model.ts"))
      .createLocalModel,
};

const loaded: Partial<ProviderSdks> = {};
const pending = new Map<SdkFamily, Promise<void>>();

/** Whether `family` has a provider package to load. */
export function isSdkFamily(family: ModelFamily): family is SdkFamily {
  return family in loaders;
}

/** Loads the packages of `families` (each once per process; a failed load is retried). */
export async function loadProviderSdks(families: Iterable<SdkFamily>): Promise<void> {
  await Promise.all([...new Set(families)].map((family) => {
    if (loaded[family]) return;
    let once = pending.get(family);
    if (!once) {
      once = loaders[family]().then((factory) => {
        (loaded as Record<SdkFamily, unknown>)[family] = factory;
      }).finally(() => pending.delete(family));
      pending.set(family, once);
    }
    return once;
  }));
}

/** The factory of `family`; throws when {@linkcode loadProviderSdks} has not loaded it. */
export function providerSdk<F extends SdkFamily>(family: F): ProviderSdks[F] {
  const factory = loaded[family];
  if (!factory) {
    throw new Error(
      `The model module of the "${family}" family is not loaded: await registry.ready() (lib/models/registry.ts) before registry.get().`,
    );
  }
  return factory as ProviderSdks[F];
}
