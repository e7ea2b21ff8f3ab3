/** The models a visitor may pick (GET /api/models) and the one picked. */
import { type Signal, useSignal } from "@preact/signals";
import type { Locale } from "@/lib/i18n/mod.ts";

/** One model of GET /api/models. */
export interface ModelOption {
  id: string;
  label: string;
  /** The label in every language (GET /api/models). */
  labels?: Partial<Record<Locale, string>>;
  available: boolean;
}

/** The model list, the picked model, and `load` (called once the island has mounted). */
export interface ModelChoice {
  models: Signal<ModelOption[]>;
  model: Signal<string | null>;
  load: () => void;
}

/** The model picker's state; the list loads when `load` is called, the server's default picked. */
export function useModels(): ModelChoice {
  const models = useSignal<ModelOption[]>([]);
  const model = useSignal<string | null>(null);
  const load = () => {
    fetch("/api/models").then((r) => r.ok ? r.json() : null).then((data) => {
      if (!data) return;
      models.value = data.models;
      model.value ??= data.defaultModel;
    }).catch(() => {});
  };
  return { models, model, load };
}
