import { type Signal, useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import type { AgentChoice } from "@/lib/client/agents.ts";
import type { ModelOption } from "@/lib/client/use_models.ts";
import { modelChoices, showModelPicker } from "@/lib/client/model_choices.ts";
import type { Conversation } from "@/lib/client/use_conversation.ts";
import type { Locale, Messages } from "@/lib/i18n/mod.ts";
import { Icon } from "@/components/Icon.tsx";
import { QUESTION_FIELD } from "@/lib/protocol/form_fields.ts";

/**
 * The question box, the agent picker (`pickAgent`: a new chat, several agents), the model
 * picker (several models) and the send (or, while an answer is under way, stop) button.
 */
export function Composer({ c, pickAgent }: { c: Conversation; pickAgent: boolean }) {
  const { t, client: { chat }, composer, choices } = c;
  const { input } = composer;
  // Without JavaScript the form posts to the page itself (routes/index.tsx, routes/c/[id].tsx),
  // so the send button is enabled until the island runs and can tell an empty question.
  const hydrated = useSignal(false);
  useEffect(() => {
    hydrated.value = true;
  }, []);
  const action = chat.messages.length ? `/c/${chat.id}` : "/";
  const models = modelChoices(choices.models.value);
  const pickModel = showModelPicker(models);
  // Any picker moves below the question on a phone, so a label is not cut to a few letters.
  const pickers = pickAgent && pickModel
    ? " composer-pickers composer-agents"
    : pickAgent || pickModel
    ? " composer-pickers"
    : "";
  return (
    <form
      class={"composer" + pickers}
      method="post"
      action={action}
      onSubmit={(e) => {
        e.preventDefault();
        void composer.send(input.value);
      }}
    >
      <label class="visually-hidden" for="composer-input">{t.composerLabel}</label>
      <textarea
        id="composer-input"
        name={QUESTION_FIELD}
        ref={c.refs.textarea}
        rows={1}
        placeholder={t.composerPlaceholder}
        value={input.value}
        onInput={(e) => (input.value = e.currentTarget.value)}
        onKeyDown={composer.onKeyDown}
      />
      {pickAgent && <AgentPicker t={t} agents={choices.agents} agent={choices.agent} />}
      {pickModel && (
        <ModelPicker
          t={t}
          locale={c.locale}
          models={models.usable}
          needKey={models.needKey}
          model={choices.model}
        />
      )}
      {c.client.busy.value
        ? (
          <button
            type="button"
            class="stop"
            aria-label={t.stop}
            title={t.stop}
            onClick={() => chat.stop()}
          >
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
            disabled={hydrated.value && !input.value.trim()}
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
  { t, locale, models, needKey, model }: {
    t: Messages;
    locale: Locale;
    models: ModelOption[];
    needKey: number;
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
      {models.map((m) => (
        <option key={m.id} value={m.id} title={m.labels?.[locale] ?? m.label}>
          {m.labels?.[locale] ?? m.label}
        </option>
      ))}
      {/* One line says why the rest are missing, instead of a row per model nobody can pick. */}
      {needKey > 0 && (
        <option value="" disabled class="model-picker-note">
          {t.modelsNeedKey.replace("{n}", String(needKey))}
        </option>
      )}
    </select>
  );
}
