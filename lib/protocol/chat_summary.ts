/** A chat as listed in the sidebar and returned by `GET /api/chats`. */
export interface ChatSummary {
  id: string;
  title: string | null;
  updatedAt: number;
}
