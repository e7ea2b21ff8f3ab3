import type { ComponentChildren } from "preact";
import type { ChatMessage, SearchToolPart } from "@/lib/protocol/ui_message.ts";
import type { RenderMarkdown } from "@/lib/client/markdown.ts";
import { format, type Locale, type Messages } from "@/lib/i18n/mod.ts";
import { descriptorOf, toolPart, type ToolPartView } from "@/lib/client/approval.ts";
import { approvalCard } from "@/lib/client/approval_slot.ts";
import { citeHrefFor, partKey } from "./prerender.ts";
import { citedSourcesOf, type Source } from "./sources.ts";
import { relatedQuestionsOf } from "@/lib/text/related_questions.ts";
import { RelatedQuestions } from "./RelatedQuestions.tsx";
import { MarkdownText } from "./MarkdownText.tsx";
import { ArtifactCard, type ArtifactPartView } from "./ArtifactCard.tsx";

/**
 * The label of the assistant that answered: the agent's name when `agentId` is one of
 * `agents` (id → name), else the model id without deployment suffixes (dates, versions).
 */
export function agentLabel(
  agentId: string | undefined,
  agents?: ReadonlyMap<string, string>,
): string | null {
  if (!agentId) return null;
  const agentName = agents?.get(agentId);
  if (agentName) return agentName;
  const name = agentId.split("/").pop() ?? agentId;
  return name.replace(/[-@](\d{4}-?\d{2}-?\d{2}|\d{8}|v\d+(\.\d+)*|latest|fp8-fast)$/i, "");
}

interface MessageProps {
  message: ChatMessage;
  t: Messages;
  /** The configured agents' names by id, to label an answer by the agent that gave it. */
  agents?: ReadonlyMap<string, string>;
  /** Markdown renderer; null until it has loaded (text shows as plain text meanwhile). */
  render: RenderMarkdown | null;
  /** True while this message is the one streaming. */
  streaming?: boolean;
  /** Buttons under an answer (island only). */
  actions?: ComponentChildren;
  /** Server-rendered HTML of text parts, used until `render` is available. */
  prerendered?: Record<string, string>;
  /** The visitor stopped this answer in this page (the saved copy carries it in metadata). */
  interrupted?: boolean;
  /** Redoes this answer; offered when it failed or was cut off (island only). */
  onRetry?: () => void;
  /**
   * Asks a related question (the last answer only): `send` in the island, a post of the chat's
   * form to `action` without JavaScript; the questions already `asked` (folded) are not offered.
   */
  ask?: { action: string; send: (text: string) => void; asked?: ReadonlySet<string> };
}

/** One message: the visitor's question or an answer with its tools, sources and receipt. */
export function Message(
  {
    message,
    t,
    agents,
    render,
    streaming = false,
    actions,
    prerendered,
    interrupted = false,
    onRetry,
    ask,
  }: MessageProps,
) {
  if (message.role === "user") {
    const text = message.parts.flatMap((p) => p.type === "text" ? [p.text] : []).join("\n");
    return (
      <article class="msg msg-user" id={`m-${message.id}`} aria-label={t.you}>
        <div class="bubble">{text}</div>
        {actions}
      </article>
    );
  }
  const sources = citedSourcesOf(message);
  const citeHref = citeHrefFor(message);
  const citeContext = `${message.id}:${sources.map((s) => s.n).join(",")}`;
  const meta = message.metadata ?? {};
  const label = agentLabel(meta.agentId, agents);
  const hasText = message.parts.some((p) => p.type === "text" && p.text.trim());
  return (
    <article class="msg msg-assistant" id={`m-${message.id}`} aria-label={t.assistant}>
      <header class="msg-head">
        <span class="msg-author">{t.assistant}</span>
        {label && <span class="agent-label">{label}</span>}
      </header>
      {message.parts.map((part, i) => (
        <AnswerPart
          key={partKeyOf(part, i)}
          message={message}
          index={i}
          t={t}
          agents={agents}
          render={render}
          streaming={streaming}
          prerendered={prerendered}
          cite={citeHref}
          citeContext={citeContext}
        />
      ))}
      {streaming && !hasText && (
        <p class="typing" aria-hidden="true">
          <span></span>
          <span></span>
          <span></span>
        </p>
      )}
      {sources.length > 0 && <SourceChips sources={sources} messageId={message.id} t={t} />}
      {ask && !streaming && <Related message={message} t={t} ask={ask} />}
      {!streaming && <OutcomeNote meta={meta} stopped={interrupted} t={t} onRetry={onRetry} />}
      {!streaming && meta.model && <Receipt meta={meta} t={t} />}
      {actions}
    </article>
  );
}

/** The message of an agent tool's `{ error: { status, message } }` output, else undefined. */
function agentError(output: unknown): string | undefined {
  const error = (output as { error?: { status?: unknown; message?: unknown } } | null)?.error;
  if (!error || typeof error.message !== "string") return undefined;
  return typeof error.status === "number" && error.status > 0
    ? `${error.status} ${error.message}`
    : error.message;
}

/**
 * The key of an answer's part: a tool call's id where the part has one (an approval or an
 * artifact keeps its card across re-renders), else its index.
 */
function partKeyOf(part: ChatMessage["parts"][number], i: number): string | number {
  if (part.type === "tool-create_artifact") return (part as unknown as ArtifactPartView).toolCallId;
  const tool = toolPart(part);
  if (tool && (tool.approval || descriptorOf(tool))) return tool.toolCallId;
  return i;
}

/** One part of an answer: its text, reasoning, a tool's card, or nothing. */
function AnswerPart(
  { message, index: i, t, agents, render, streaming, prerendered, cite, citeContext }: {
    message: ChatMessage;
    index: number;
    t: Messages;
    agents?: ReadonlyMap<string, string>;
    render: RenderMarkdown | null;
    streaming: boolean;
    prerendered?: Record<string, string>;
    cite: (n: number) => string | null;
    citeContext: string;
  },
) {
  const part = message.parts[i];
  if (part.type === "text") {
    if (!part.text) return null;
    if (render) {
      return (
        <MarkdownText
          text={part.text}
          streaming={streaming && part.state === "streaming"}
          render={render}
          cite={cite}
          citeContext={citeContext}
        />
      );
    }
    const html = prerendered?.[partKey(message.id, i)];
    return html !== undefined
      ? <div class="md" dangerouslySetInnerHTML={{ __html: html }} />
      : <div class="md md-plain">{part.text}</div>;
  }
  if (part.type === "reasoning") {
    const active = streaming && part.state === "streaming";
    return (
      <details class="reasoning">
        <summary>{active ? t.thinking : t.reasoning}</summary>
        <p>{part.text}</p>
      </details>
    );
  }
  if (part.type === "tool-search_site") {
    return <SearchCard part={part as unknown as SearchToolPart} t={t} />;
  }
  if (part.type === "tool-create_artifact") {
    return <ArtifactCard part={part as unknown as ArtifactPartView} t={t} />;
  }
  const tool = toolPart(part);
  if (tool && (tool.approval || descriptorOf(tool))) {
    return <ApprovalSlot part={tool} t={t} agents={agents} />;
  }
  if (part.type.startsWith("tool-") && "state" in part) {
    const p = part as { state: string; errorText?: string; toolCallId: string; output?: unknown };
    // An agent's call that ran without a card and failed (`{ error }`, e.g. a remote
    // server that is down) says why, like a failed call.
    const failed = p.state === "output-error" ? p.errorText : agentError(p.output);
    return (
      <div class="tool-card">
        <span class="tool-name">{part.type.slice(5)}</span>
        {failed && <pre class="tool-error"><code>{failed}</code></pre>}
      </div>
    );
  }
  return null;
}

/**
 * A tool part with an approval: the card once its code is there (the server has it
 * at start; the browser loads it on demand), a short placeholder before. The agent's name
 * is the page's (its language), not the one saved with the turn.
 */
function ApprovalSlot(
  { part, t, agents }: { part: ToolPartView; t: Messages; agents?: ReadonlyMap<string, string> },
) {
  const Card = approvalCard();
  const toolName = part.type === "dynamic-tool"
    ? String((part as { toolName?: unknown }).toolName)
    : part.type.slice("tool-".length);
  if (!Card) {
    return (
      <div class="tool-card tool-card-busy" role="status">
        <span class="spinner" aria-hidden="true"></span>
        <span>{t.approvalLoading}</span>
      </div>
    );
  }
  const { approval } = part;
  const saved = descriptorOf(part);
  const agentName = saved && agents?.get(saved.agentId);
  const descriptor = saved && agentName ? { ...saved, agentName } : saved;
  return (
    <Card
      locale={t.htmlLang as Locale}
      toolName={toolName}
      state={part.state}
      approval={{
        id: approval?.id ?? part.toolCallId,
        ...(approval?.approved !== undefined ? { approved: approval.approved } : {}),
        ...(approval?.reason ? { reason: approval.reason } : {}),
        ...(descriptor ? { descriptor } : {}),
      }}
      input={part.input}
      output={part.output}
      errorText={part.errorText}
    />
  );
}

/** How an answer ended, when that is worth saying: stopped, failed, cut off, or at the step limit. */
function OutcomeNote(
  { meta, stopped, t, onRetry }: {
    meta: NonNullable<ChatMessage["metadata"]>;
    stopped: boolean;
    t: Messages;
    onRetry?: () => void;
  },
) {
  const outcome = stopped || (!meta.outcome && meta.finishReason === "aborted")
    ? "stopped"
    : meta.outcome;
  const note = outcome === "stopped"
    ? t.interrupted
    : outcome === "failed"
    ? t.answerFailed
    : outcome === "interrupted"
    ? t.answerCutOff
    : outcome === "step-limit"
    ? t.answerStepLimit
    : null;
  if (!note) return null;
  const retry = onRetry && (outcome === "failed" || outcome === "interrupted");
  return (
    <p class={`interrupted outcome-${outcome}`}>
      {note}
      {retry && (
        <>
          {" "}
          <button type="button" class="link-button" onClick={onRetry}>{t.retry}</button>
        </>
      )}
    </p>
  );
}

function SearchCard(
  { part, t }: { part: SearchToolPart; t: Messages },
) {
  const query = part.input?.query ?? "";
  if (part.state === "output-error") {
    return (
      <div class="tool-card tool-card-error">
        <span>{format(t.searchFailed, { query })}</span>
        <pre class="tool-error"><code>{part.errorText}</code></pre>
      </div>
    );
  }
  if (part.state === "output-available") {
    const out = part.output;
    const numbered = out.passages.filter((p) => p.n !== undefined).length;
    return (
      <div class="tool-card tool-card-done">
        <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
          <circle cx="11" cy="11" r="6.5" fill="none" stroke="currentColor" stroke-width="2" />
          <path d="m16 16 4.5 4.5" stroke="currentColor" stroke-width="2" stroke-linecap="round" />
        </svg>
        <span>
          {format(t.searched, { query })} · {out.mode === "unavailable"
            ? t.searchUnavailable
            : numbered === 0
            ? t.noResults
            : format(numbered === 1 ? t.resultsOne : t.resultsMany, { n: numbered })}
        </span>
      </div>
    );
  }
  return (
    <div class="tool-card tool-card-busy" role="status">
      <span class="spinner" aria-hidden="true"></span>
      <span>{format(t.searching, { query })}</span>
    </div>
  );
}

/** The related questions of a finished answer, when it has some. */
function Related(
  { message, t, ask }: {
    message: ChatMessage;
    t: Messages;
    ask: NonNullable<MessageProps["ask"]>;
  },
) {
  const related = relatedQuestionsOf(message)
    .filter((r) => !ask.asked?.has(r.question.toLocaleLowerCase()));
  if (!related.length) return null;
  return <RelatedQuestions related={related} t={t} action={ask.action} onAsk={ask.send} />;
}

function SourceChips(
  { sources, messageId, t }: { sources: Source[]; messageId: string; t: Messages },
) {
  return (
    <nav class="sources" aria-label={t.sources}>
      <ol>
        {sources.map((s) => (
          <li key={s.n} id={`src-${messageId}-${s.n}`}>
            {s.href
              ? (
                <a
                  class="chip"
                  href={s.href}
                  target="_blank"
                  rel="noopener"
                  aria-describedby={`srcd-${messageId}-${s.n}`}
                >
                  <ChipLabel source={s} />
                </a>
              )
              : (
                // Not a link the page may follow: the chip keeps its number and title only.
                <span class="chip" aria-describedby={`srcd-${messageId}-${s.n}`}>
                  <ChipLabel source={s} />
                </span>
              )}
            <span class="chip-preview" role="tooltip" id={`srcd-${messageId}-${s.n}`}>
              <strong>{s.title}</strong>
              {s.snippet && <span>{s.snippet}</span>}
            </span>
          </li>
        ))}
      </ol>
    </nav>
  );
}

function ChipLabel({ source }: { source: Source }) {
  return (
    <>
      <span class="chip-n">{source.n}</span>
      <span class="chip-title">{source.title.split(" › ").pop()}</span>
    </>
  );
}

function Receipt({ meta, t }: { meta: NonNullable<ChatMessage["metadata"]>; t: Messages }) {
  const ms = (v: number | undefined) =>
    v === undefined ? "—" : v < 1000 ? `${v} ms` : `${(v / 1000).toFixed(1)} s`;
  return (
    <details class="receipt">
      <summary>{t.receipt}</summary>
      <dl>
        <dt>{t.modelLabel}</dt>
        <dd>{meta.model}</dd>
        {meta.routes && (
          <>
            <dt>{t.route}</dt>
            <dd>
              {meta.routes.length === 0
                ? t.routeOffline
                : meta.routes.map((r) =>
                  r === "gateway" ? t.routeGateway : r === "direct" ? t.routeDirect : t.routeRetry
                ).join(" → ")}
            </dd>
          </>
        )}
        <dt>{t.tokens}</dt>
        <dd>
          {meta.usage
            ? `${meta.usage.inputTokens ?? "—"} → ${meta.usage.outputTokens ?? "—"}`
            : "—"}
        </dd>
        <dt>{t.cost}</dt>
        <dd>
          {meta.costUsd === null || meta.costUsd === undefined
            ? "—"
            : `US$ ${meta.costUsd.toFixed(5)}`}
        </dd>
        <dt>{t.firstToken}</dt>
        <dd>{ms(meta.ttftMs)}</dd>
        <dt>{t.totalTime}</dt>
        <dd>{ms(meta.latencyMs)}</dd>
      </dl>
    </details>
  );
}
