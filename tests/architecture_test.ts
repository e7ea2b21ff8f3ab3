/**
 * The app's real imports against the layer table of docs/architecture.md: no import points up
 * or across sides, and no import forms a cycle. `deno task lint:shape` prints the same check.
 */
import assert from "node:assert/strict";
import { checkProjectShape, violationKey } from "../scripts/shape/project.ts";

/**
 * Imports and cycles that break the table today and are being removed by the work in flight.
 * The list must match exactly: a new violation fails, and so does a fixed one still listed,
 * so whoever removes one deletes its line here. Empty it; never add to it.
 */
const KNOWN_VIOLATIONS: readonly string[] = [
  "components/ChatList.tsx → lib/store/chats.ts",
  "components/ChatShell.tsx → lib/config.ts",
  "components/ChatShell.tsx → lib/store/chats.ts",
  "components/ChatShell.tsx → lib/agents/types.ts",
  "components/ChatShell.tsx → islands/ChatMessages.tsx",
  "components/DocPage.tsx → lib/corpus/pages.ts",
  "components/artifacts/ArtifactBody.tsx → lib/artifacts/types.ts",
  "components/artifacts/ArtifactDiff.tsx → lib/artifacts/types.ts",
  "components/artifacts/ArtifactDiff.tsx → lib/artifacts/line_diff.ts",
  "components/artifacts/ArtifactPanel.tsx → lib/artifacts/types.ts",
  "components/artifacts/ArtifactPreview.tsx → lib/artifacts/sandbox_doc.ts",
  "components/artifacts/ArtifactPreview.tsx → lib/artifacts/types.ts",
  "components/artifacts/artifact_file.ts → lib/artifacts/types.ts",
  "components/chat/ApprovalCard.tsx → lib/agents/request.ts",
  "components/chat/ArtifactCard.tsx → lib/artifacts/versions.ts",
  "components/chat/ArtifactSlot.tsx → lib/artifacts/types.ts",
  "islands/ChatMessages.tsx → lib/artifacts/versions.ts",
  "islands/ToolApproval.tsx → lib/agents/request.ts",
  "lib/admin/dashboard.ts → lib/services.ts",
  "lib/chat/lazy.ts → lib/services.ts",
  "lib/chat/ownership.ts → lib/services.ts",
  "lib/chat/shell_data.ts → components/ChatShell.tsx",
  "lib/chat/turn_approval.ts → lib/services.ts",
  "lib/chat/turn_save.ts → lib/services.ts",
  "lib/chat/turn_stream.ts → lib/services.ts",
  "lib/client/approval.ts → lib/agents/request.ts",
  "lib/client/approval.ts → lib/agents/types.ts",
  "lib/client/approval_form.ts → lib/agents/input_schema.ts",
  "lib/client/approval_form.ts → lib/agents/types.ts",
  "lib/client/approval_request.ts → lib/agents/request.ts",
  "lib/client/artifact_slot.ts → components/artifacts/ArtifactPanel.tsx",
  "lib/client/browser_run.ts → lib/agents/body_reader.ts",
  "lib/client/use_widget_overlay.ts → lib/store/chats.ts",
  "lib/config.ts → lib/tools/self_agent.ts",
  "lib/gaps/thumbs_down.ts → lib/services.ts",
  "lib/http/admin_guard.ts → lib/services.ts",
  "lib/http/admin_session.ts → lib/store/admin_sessions.ts",
  "lib/http/define.ts → lib/services.ts",
  "lib/http/startup_checks.ts → lib/config.ts",
  "lib/mcp/ask_tool.ts → lib/services.ts",
  "lib/mcp/limits.ts → lib/services.ts",
  "lib/store/import_history.ts → lib/chat/title.ts",
];

Deno.test("imports follow the layer table and form no cycle", async () => {
  const root = new URL("../", import.meta.url).pathname.replace(/\/$/, "");
  const report = await checkProjectShape(root);
  assert.ok(
    report.modules > 100,
    `Only ${report.modules} modules found: is the include list right?`,
  );
  const found = [
    ...report.violations.map(violationKey),
    ...report.cycles.map((cycle) => `cycle: ${cycle.join(" ↔ ")}`),
  ];
  const known = new Set(KNOWN_VIOLATIONS);
  const reasons = new Map(report.violations.map((v) => [violationKey(v), v.reason]));
  const added = found.filter((key) => !known.has(key)).map((key) =>
    reasons.has(key) ? `${key}  (${reasons.get(key)})` : key
  );
  const fixed = KNOWN_VIOLATIONS.filter((key) => !found.includes(key));
  assert.deepEqual(
    added,
    [],
    "Imports against docs/architecture.md's layer table (fix the import or move the shared code down)",
  );
  assert.deepEqual(fixed, [], "Fixed: delete these lines from KNOWN_VIOLATIONS");
});
