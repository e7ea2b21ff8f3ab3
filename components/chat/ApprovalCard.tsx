/**
 * The approval card's markup (no state, no I/O): the exact HTTP request, the
 * decision buttons, the deny reason, the edit form and the outcome once decided.
 * islands/ToolApproval.tsx owns the state and sends the decision.
 */
import type { RequestDescription } from "@/lib/agents/request.ts";
import type { FormField, FormValues } from "@/lib/client/approval_form.ts";
import { type ApprovalMessages, format, type Messages } from "@/lib/i18n/mod.ts";

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

/** The method, final URL, headers and pretty body of a request. */
export function RequestView({ request, t }: { request: RequestDescription; t: CardMessages }) {
  const headers = Object.entries(request.headers);
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
        {f.path.at(-1)}
        {f.required && <span class="approval-required">({p.t.approvalRequired})</span>}
      </label>
      {f.description && <span class="approval-hint">{f.description}</span>}
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
  const top = p.fields.filter((f) => f.path.length === 1);
  const body = p.fields.filter((f) => f.path.length > 1);
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
      <p class="approval-form-title">{format(p.t.approvalEditTitle, { tool: p.toolName })}</p>
      {top.map((f) => <Field key={f.key} f={f} p={p} />)}
      {body.length > 0 && (
        <fieldset>
          <legend>body</legend>
          {body.map((f) => <Field key={f.key} f={f} p={p} />)}
        </fieldset>
      )}
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
      <h3 class="approval-title" id={headingId}>{t.approvalTitle}</h3>
      <p class="approval-intro">
        {format(t.approvalIntro, { agent: p.agentName, tool: p.toolName })}
        {p.runInBrowser && <>{t.approvalBrowser}</>}
      </p>
      {p.mode === "edit" && pending ? <EditForm {...p} /> : p.request && (
        <>
          {p.mode === "review" && <p class="approval-edited" role="status">{t.approvalEdited}</p>}
          <p class="visually-hidden">{t.approvalRequest}</p>
          <RequestView request={p.request} t={t} />
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
