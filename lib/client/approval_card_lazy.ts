/** The approval card island, as a lazy chunk (see lib/client/approval_slot.ts). */
export { default } from "@/islands/ToolApproval.tsx";
