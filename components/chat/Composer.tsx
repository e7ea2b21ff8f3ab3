import type { RefObject } from "preact";
import type { Signal } from "@preact/signals";
import type { AgentChoice } from "./agents.ts";
import type { ModelOption } from "@/lib/client/use_models.ts";
import type { Locale, Messages } from "@/lib/i18n/mod.ts";
import { Icon } from "@/components/Icon.tsx";

/** Props of the composer: the question, the pickers' state and the send/stop handlers. */
export interface ComposerProps {
  t: Messages;
  locale: Locale;
  input: Signal<string>;
  textarea: RefObject<HTMLTextAreaElement | null>;
  /** Show the agent picker (a new chat, several agents). */
  pickAgent: boolean;
  agents: AgentChoice[];
  agent: Signal<string | null>;
  models: ModelOption[];
  model: Signal<string | null>;
  busy: boolean;
  onSubmit: () => void;
  onKeyDown: (e: KeyboardEvent) => void;
  onStop: () => void;
}

/** The question box, the agent and model pickers, and the send (or stop) button. */
export function Composer(p: ComposerProps) {
  const { t } = p;
  return (
    <form
      class={p.pickAgent ? "composer composer-agents" : "composer"}
      onSubmit={(e) => {
        e.preventDefault();
        p.onSubmit();
      }}
    >
      <label class="visually-hidden" for="composer-input">{t.composerLabel}</label>
      <textarea
        id="composer-input"
        ref={p.textarea}
        rows={1}
        placeholder={t.composerPlaceholder}
        value={p.input.value}
        onInput={(e) => (p.input.value = e.currentTarget.value)}
        onKeyDown={p.onKeyDown}
      />
      {p.pickAgent && <AgentPicker t={t} agents={p.agents} agent={p.agent} />}
      {p.models.length > 1 && (
        <ModelPicker t={t} locale={p.locale} models={p.models} model={p.model} />
      )}
      {p.busy
        ? (
          <button type="button" class="stop" aria-label={t.stop} title={t.stop} onClick={p.onStop}>
            <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
              <rect x="6" y="6" width="12" height="12" rx="2" fill="currentColor" />
            </svg>
          </button>
        )
        : (
          <button
            type="submit"
            class="send"
            aria-label={t.send}
            title={t.send}
            disabled={!p.input.value.trim()}
          >
            <Icon d="M4 12h14M12 5l7 7-7 7" size={20} weight={2} />
          </button>
        )}
    </form>
  );
}

function AgentPicker(
  { t, agents, agent }: { t: Messages; agents: AgentChoice[]; agent: Signal<string | null> },
) {
  return (
    <select
      class="model-picker agent-picker"
      aria-label={t.agentPickerLabel}
      onChange={(e) => (agent.value = e.currentTarget.value || null)}
    >
      {/* `selected` on the options: the server-rendered page shows `?agent=` before hydration. */}
      <option value="" selected={!agent.value}>{t.allAgents}</option>
      {agents.map((a) => (
        <option key={a.id} value={a.id} title={a.description} selected={agent.value === a.id}>
          {a.name}
        </option>
      ))}
    </select>
  );
}

function ModelPicker(
  { t, locale, models, model }: {
    t: Messages;
    locale: Locale;
    models: ModelOption[];
    model: Signal<string | null>;
  },
) {
  return (
    <select
      class="model-picker"
      aria-label={t.modelLabel}
      value={model.value ?? undefined}
      onChange={(e) => (model.value = e.currentTarget.value)}
    >
      {models.map((m) => {
        const label = m.labels?.[locale] ?? m.label;
        return (
          <option key={m.id} value={m.id} disabled={!m.available}>
            {m.available ? label : `${label} (${t.unavailable})`}
          </option>
        );
      })}
    </select>
  );
}
