/**
 * The approval card's markup (no state, no I/O): a plain sentence of what approving does,
 * the fields a person checks under their own labels, the exact HTTP request behind a
 * "Technical details" disclosure, the decision buttons, the deny reason, the edit form and
 * the outcome once decided.
 * islands/ToolApproval.tsx owns the state and sends the decision.
 */
import type { RequestDescription } from "@/lib/protocol/approval.ts";
import type { FormField, FormValues } from "@/lib/client/approval_form.ts";
import { format, type Messages } from "@/lib/i18n/mod.ts";
import type { ApprovalMessages } from "@/lib/i18n/approval.ts";

/** The card's strings: the app's catalog and the card's own. */
export type CardMessages = Messages & ApprovalMessages;

/** What the card is showing. */
export type CardMode = "view" | "deny" | "edit" | "review";

/** Everything the card renders; the handlers come from the island. */
export interface ApprovalCardProps {
  t: CardMessages;
  /** Unique per card: ids of the heading and fields derive from it. */
  uid: string;
  toolName: string;
  agentName: string;
  /** For a tool of an MCP agent: the server's name of the tool and the server's URL. */
  mcpTool?: { tool: string; server: string } | null;
  /** What approving does, in the visitor's language (the operation's `x-visitor.summary`). */
  summary: string | null;
  /** Each field's label in the visitor's language, by field key. */
  labels: Record<string, string>;
  /** The values the request carries, by field key (shown for checking). */
  shown: FormValues;
  /** The tool part's state. */
  state: string;
  mode: CardMode;
  /** The request on screen (the descriptor's, or the rebuilt one after an edit). */
  request: RequestDescription | null;
  runInBrowser: boolean;
  expired: boolean;
  /** The decision, once made. */
  approved?: boolean;
  reason?: string;
  output?: unknown;
  errorText?: string;
  /** Set while waiting for the server after a decision in this page. */
  sending?: boolean;
  fields: FormField[];
  values: FormValues;
  problems: Record<string, string[]>;
  cardRef?: (el: HTMLElement | null) => void;
  on: {
    approve(): void;
    deny(): void;
    confirmDeny(): void;
    edit(): void;
    review(): void;
    cancel(): void;
    reason(text: string): void;
    value(key: string, text: string): void;
  };
}

/**
 * The headers that carry this app's sealed chat context (lib/agents/request.ts
 * `CONTEXT_HEADER`, context_seal.ts): ids a visitor cannot check, said in words instead.
 */
const CONTEXT_HEADERS = /^x-assistant-context(-seal)?$/i;

/** The method, final URL, headers and pretty body of a request. */
export function RequestView({ request, t }: { request: RequestDescription; t: CardMessages }) {
  const headers = Object.entries(request.headers).map(([name, value]) =>
    [name, CONTEXT_HEADERS.test(name) ? t.approvalContextHeader : value] as const
  ).filter(([name], i, all) =>
    // The seal says nothing more than the context it seals: one line for both.
    !/-seal$/i.test(name) || !all.some(([other], j) => j !== i && CONTEXT_HEADERS.test(other))
  );
  return (
    <div class="approval-request">
      <p class="approval-line">
        <span class="approval-method">{request.method}</span>{" "}
        <code class="approval-url">{request.url}</code>
      </p>
      {headers.length > 0 && (
        <dl class="approval-headers" aria-label={t.approvalHeaders}>
          {headers.map(([name, value]) => (
            <div key={name}>
              <dt>{name}:</dt> <dd>{value}</dd>
            </div>
          ))}
        </dl>
      )}
      {request.body !== undefined && (
        <pre class="approval-body" aria-label={t.approvalBody} tabIndex={0}>
          <code>{request.body}</code>
        </pre>
      )}
    </div>
  );
}

function summary(output: unknown): string {
  const data = output && typeof output === "object" && "data" in output
    ? (output as { data: unknown }).data
    : output;
  const text = typeof data === "string" ? data : JSON.stringify(data, null, 2) ?? "";
  return text.length > 600 ? `${text.slice(0, 600)}…` : text;
}

/** The outcome after a decision: sending, sent (with the answer), denied, failed. */
function Outcome(p: ApprovalCardProps) {
  const { t, state } = p;
  const failed = state === "output-error" ||
    (state === "output-available" && p.output && typeof p.output === "object" &&
      "error" in p.output);
  if (state === "output-denied" || (state === "approval-responded" && p.approved === false)) {
    return (
      <p class="approval-outcome approval-outcome-denied" role="status">
        {p.reason ? format(t.approvalDeniedReason, { reason: p.reason }) : t.approvalDenied}
      </p>
    );
  }
  if (failed) {
    const error = (p.output as { error?: { status: number; message: string } })?.error;
    return (
      <div class="approval-outcome approval-outcome-error" role="status">
        <p>{t.approvalFailed}</p>
        <pre class="tool-error"><code>{p.errorText ?? (error ? `${error.status || ""} ${error.message}`.trim() : "")}</code></pre>
      </div>
    );
  }
  if (state === "output-available") {
    return (
      <div class="approval-outcome approval-outcome-sent" role="status">
        <p>{t.approvalSent}</p>
        <details class="approval-result">
          <summary>{t.approvalResult}</summary>
          <pre><code>{summary(p.output)}</code></pre>
        </details>
      </div>
    );
  }
  return (
    <p class="approval-outcome" role="status">
      <span class="spinner" aria-hidden="true"></span> {t.approvalSending}
    </p>
  );
}

/** A field's label: the spec's for the visitor's language, else its name made readable. */
export function fieldLabel(f: FormField, labels: Record<string, string>): string {
  const name = f.path.at(-1) ?? f.key;
  const label = labels[f.key] ?? name.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ");
  return label.charAt(0).toUpperCase() + label.slice(1);
}

/** The input type for a one-line field: e-mail and URL keyboards on a phone. */
function inputType(f: FormField): "email" | "url" | "text" {
  return f.format === "email" ? "email" : f.format === "uri" || f.format === "url" ? "url" : "text";
}

/** The values the request carries, each under its label, for the visitor to check. */
function Values({ p }: { p: ApprovalCardProps }) {
  if (!p.fields.length) return null;
  return (
    <dl class="approval-values">
      {p.fields.map((f) => (
        <div key={f.key}>
          <dt>{fieldLabel(f, p.labels)}</dt>
          <dd class={f.kind === "text" || f.kind === "json" ? "approval-value-long" : undefined}>
            {f.kind === "boolean" && p.shown[f.key]
              ? (p.shown[f.key] === "true" ? p.t.approvalYes : p.t.approvalNo)
              : p.shown[f.key] || <span class="approval-empty">{p.t.approvalEmpty}</span>}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function Field({ f, p }: { f: FormField; p: ApprovalCardProps }) {
  const id = `${p.uid}-f-${f.key.replace(/[^\w-]/g, "_")}`;
  const problems = p.problems[f.key] ?? [];
  const value = p.values[f.key] ?? "";
  const common = {
    id,
    name: f.key,
    "aria-invalid": problems.length ? true : undefined,
    "aria-describedby": problems.length ? `${id}-err` : undefined,
  };
  const onInput = (e: Event) =>
    p.on.value(f.key, (e.currentTarget as HTMLInputElement | HTMLSelectElement).value);
  const control = f.kind === "boolean" || f.kind === "enum"
    ? (
      <select {...common} value={value} onChange={onInput}>
        {!f.required && <option value="">{p.t.approvalUnset}</option>}
        {(f.kind === "boolean" ? ["true", "false"] : f.options ?? []).map((o) => (
          <option key={o} value={o}>
            {f.kind === "boolean" ? (o === "true" ? p.t.approvalYes : p.t.approvalNo) : o}
          </option>
        ))}
      </select>
    )
    : f.kind === "text" || f.kind === "json"
    ? <textarea {...common} rows={f.kind === "json" ? 4 : 3} value={value} onInput={onInput} />
    : f.kind === "string" && inputType(f) === "email"
    ? <input {...common} type="email" autoComplete="email" value={value} onInput={onInput} />
    : f.kind === "string" && inputType(f) === "url"
    ? <input {...common} type="url" value={value} onInput={onInput} />
    : f.kind === "string"
    ? <input {...common} type="text" value={value} onInput={onInput} />
    : (
      <input
        {...common}
        type="number"
        step={f.kind === "integer" ? "1" : "any"}
        value={value}
        onInput={onInput}
      />
    );
  return (
    <div class="approval-field">
      <label for={id}>
        {fieldLabel(f, p.labels)}
        {f.required && <span class="approval-required">({p.t.approvalRequired})</span>}
      </label>
      {control}
      {problems.length > 0 && (
        <ul class="approval-problems" id={`${id}-err`}>
          {problems.map((m) => <li key={m}>{m}</li>)}
        </ul>
      )}
    </div>
  );
}

function EditForm(p: ApprovalCardProps) {
  const general = p.problems[""] ?? [];
  const any = Object.keys(p.problems).length > 0;
  return (
    <form
      class="approval-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        p.on.review();
      }}
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.preventDefault();
          p.on.cancel();
        }
      }}
    >
      <p class="approval-form-title">{p.t.approvalEditTitle}</p>
      {/* The schema's descriptions are written for the model: a person gets the labels. */}
      {p.fields.map((f) => <Field key={f.key} f={f} p={p} />)}
      {any && (
        <div class="approval-problems" role="alert">
          <p>{p.t.approvalFixProblems}</p>
          {general.length > 0 && <ul>{general.map((m) => <li key={m}>{m}</li>)}</ul>}
        </div>
      )}
      <div class="approval-actions">
        <button type="button" class="button-quiet" onClick={p.on.cancel}>{p.t.cancel}</button>
        <button type="submit" class="button-primary">{p.t.approvalReview}</button>
      </div>
    </form>
  );
}

/** The approval card: a labelled group holding the request and what can be done with it. */
export function ApprovalCard(p: ApprovalCardProps) {
  const { t } = p;
  const pending = p.state === "approval-requested" && !p.sending;
  const headingId = `${p.uid}-title`;
  return (
    <section
      class={`approval-card approval-${p.state}`}
      role="group"
      aria-labelledby={headingId}
      tabIndex={-1}
      ref={p.cardRef}
      data-approval-state={p.state}
    >
      <h2 class="approval-title" id={headingId}>{p.summary ?? t.approvalTitle}</h2>
      <p class="approval-intro">
        {format(t.approvalIntro, { agent: p.agentName })}
        {p.runInBrowser && <>{" "}{t.approvalBrowser}</>}
      </p>
      {p.mcpTool && (
        <p class="approval-mcp">
          {format(t.approvalMcpTool, { tool: p.mcpTool.tool, server: p.mcpTool.server })}
        </p>
      )}
      {p.mode === "edit" && pending ? <EditForm {...p} /> : p.request && (
        <>
          {p.mode === "review" && <p class="approval-edited" role="status">{t.approvalEdited}</p>}
          <Values p={p} />
          <details class="approval-details">
            <summary>{t.approvalDetails}</summary>
            <p class="visually-hidden">{t.approvalRequest}</p>
            <RequestView request={p.request} t={t} />
          </details>
        </>
      )}
      {!pending && <Outcome {...p} />}
      {pending && p.expired && <p class="approval-outcome" role="status">{t.approvalExpired}</p>}
      {pending && !p.expired && p.mode === "deny" && (
        <div class="approval-deny">
          <label for={`${p.uid}-reason`}>{t.approvalReason}</label>
          <textarea
            id={`${p.uid}-reason`}
            rows={2}
            maxLength={500}
            value={p.reason ?? ""}
            onInput={(e) => p.on.reason(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === "Escape") {
                e.preventDefault();
                p.on.cancel();
              }
            }}
          />
          <div class="approval-actions">
            <button type="button" class="button-quiet" onClick={p.on.cancel}>{t.cancel}</button>
            <button type="button" class="button-danger" onClick={p.on.confirmDeny}>
              {t.approvalConfirmDeny}
            </button>
          </div>
        </div>
      )}
      {pending && !p.expired && (p.mode === "view" || p.mode === "review") && (
        <div class="approval-actions">
          {p.mode === "review"
            ? (
              <button type="button" class="button-quiet" onClick={p.on.edit}>
                {t.approvalBackToEdit}
              </button>
            )
            : (
              <button type="button" class="button-quiet" onClick={p.on.edit}>
                {t.approvalEdit}
              </button>
            )}
          <button type="button" class="button-quiet" onClick={p.on.deny}>{t.approvalDeny}</button>
          <button type="button" class="button-primary" onClick={p.on.approve}>
            {t.approvalApprove}
          </button>
        </div>
      )}
    </section>
  );
}
