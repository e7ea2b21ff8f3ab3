/**
 * The tool-approval card: shows the exact HTTP request an agent wants to send and
 * lets the visitor approve it, deny it (with an optional reason) or edit the
 * arguments (validated against the operation's schema, then shown again as a
 * request). The decision leaves as a bubbling `assistant:approval` DOM event that
 * the message list turns into `Chat.addToolApprovalResponse`, so the props stay
 * serialisable. Rendered inside the message list (lazily loaded there; rendered
 * by the server on /c/:id while an approval is pending).
 */
import { useLayoutEffect, useRef } from "preact/hooks";
import { useSignal } from "@preact/signals";
import { type Locale, messages as catalog } from "@/lib/i18n/mod.ts";
import { approvalMessages } from "@/lib/i18n/approval.ts";
import {
  APPROVAL_EVENT,
  type ApprovalDecision,
  type ApprovalDescriptorView,
} from "@/lib/client/approval.ts";
import { type FormField, formFields, formValues, readForm } from "@/lib/client/approval_form.ts";
import { requestToShow } from "@/lib/client/approval_request.ts";
import { registerApprovalCard, type ToolApprovalProps } from "@/lib/client/approval_slot.ts";
import type { RequestDescription } from "@/lib/protocol/approval.ts";
import { ApprovalCard, type CardMode } from "@/components/chat/ApprovalCard.tsx";
import { localize, type LocalizedText } from "@/lib/i18n/localized.ts";

/** Arguments the visitor edited, and the request they make. */
interface EditedRequest {
  input: Record<string, unknown>;
  request: RequestDescription;
}

/** The card island. */
export default function ToolApproval(props: ToolApprovalProps) {
  const t = { ...catalog(props.locale), ...approvalMessages(props.locale) };
  const { approval, state } = props;
  const descriptor = approval.descriptor;
  const schema = descriptor?.edit.operation.inputSchema;
  const card = useRef<HTMLElement | null>(null);
  const mode = useSignal<CardMode>("view");
  const reason = useSignal("");
  const values = useSignal<Record<string, string>>({});
  const problems = useSignal<Record<string, string[]>>({});
  const edited = useSignal<EditedRequest | null>(null);
  const sending = useSignal(false);
  const fields = schema ? formFields(schema) : [];
  const visitor = descriptor?.edit.operation.visitor;
  const labels = fieldLabels(fields, visitor?.labels, props.locale);
  useCardFocus(card, mode.value, state);

  function decide(decision: Omit<ApprovalDecision, "id">) {
    sending.value = true;
    const detail = { id: approval.id, ...decision };
    card.current?.dispatchEvent(new CustomEvent(APPROVAL_EVENT, { bubbles: true, detail }));
  }

  function review() {
    if (!schema || !descriptor) return;
    const read = readEdit(descriptor, schema, fields, values.value, t);
    problems.value = "problems" in read ? read.problems : {};
    if ("problems" in read) return;
    edited.value = read;
    mode.value = "review";
  }

  const reviewing = mode.value === "review" && edited.value;
  return (
    <ApprovalCard
      t={t}
      uid={approval.id.replace(/[^\w-]/g, "_")}
      toolName={props.toolName}
      agentName={descriptor?.agentName ?? descriptor?.agentId ?? ""}
      summary={visitor?.summary ? localize(visitor.summary, props.locale) : null}
      mcpTool={descriptor?.edit.operation.mcp
        ? { tool: descriptor.edit.operation.mcp.tool, server: descriptor.edit.baseUrl }
        : null}
      labels={labels}
      shown={formValues(fields, reviewing ? edited.value!.input : props.input)}
      state={state}
      mode={mode.value}
      request={reviewing ? edited.value!.request : descriptor?.request ?? null}
      runInBrowser={descriptor?.runIn === "browser"}
      expired={descriptor != null && descriptor.expiresAt < Date.now()}
      approved={approval.approved}
      reason={state === "approval-requested" ? reason.value : approval.reason}
      output={props.output}
      errorText={props.errorText}
      sending={sending.value && state === "approval-requested"}
      fields={fields}
      values={values.value}
      problems={problems.value}
      cardRef={(el) => (card.current = el)}
      on={{
        approve: () =>
          decide({ approved: true, ...(reviewing ? { input: edited.value!.input } : {}) }),
        deny: () => (mode.value = "deny"),
        confirmDeny: () => decide({ approved: false, reason: reason.value.trim() || undefined }),
        edit: () => {
          values.value = formValues(fields, edited.value?.input ?? props.input);
          problems.value = {};
          mode.value = "edit";
        },
        review,
        cancel: () => {
          mode.value = "view";
          edited.value = null;
          problems.value = {};
        },
        reason: (text) => (reason.value = text),
        value: (key, text) => (values.value = { ...values.value, [key]: text }),
      }}
    />
  );
}

/** The fields' labels from the operation's `x-visitor`, in the visitor's language. */
function fieldLabels(
  fields: FormField[],
  given: Record<string, LocalizedText> | undefined,
  locale: Locale,
): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const f of fields) {
    const label = given?.[f.key] ?? given?.[f.path.at(-1) ?? ""];
    if (label) labels[f.key] = localize(label, locale);
  }
  return labels;
}

/**
 * Focus follows the card's steps: on arrival, and after each change of mode. A layout
 * effect, so focus moves with the render: a later effect could take focus away from a
 * field the visitor has already started typing in.
 */
function useCardFocus(card: { current: HTMLElement | null }, mode: CardMode, state: string) {
  useLayoutEffect(() => {
    if (state !== "approval-requested") return;
    const el = card.current;
    const target = mode === "edit"
      ? el?.querySelector<HTMLElement>("input, select, textarea")
      : mode === "deny"
      ? el?.querySelector<HTMLElement>("textarea")
      : el;
    target?.focus();
  }, [mode, state]);
}

/** The edited arguments and the request they make, or the problems to show by field. */
function readEdit(
  descriptor: ApprovalDescriptorView,
  schema: Parameters<typeof formFields>[0],
  fields: FormField[],
  values: Record<string, string>,
  t: { approvalNotNumber: string; approvalInvalidJson: string },
): EditedRequest | { problems: Record<string, string[]> } {
  const read = readForm(schema, fields, values, {
    notNumber: t.approvalNotNumber,
    invalidJson: t.approvalInvalidJson,
  });
  if ("problems" in read) return { problems: read.problems };
  const shown = requestToShow(descriptor, read.input);
  if ("error" in shown) {
    const key = fields.some((f) => f.key === shown.error.parameter) ? shown.error.parameter! : "";
    return { problems: { [key]: [shown.error.message] } };
  }
  return { input: read.input, request: shown.request };
}

registerApprovalCard(ToolApproval);
