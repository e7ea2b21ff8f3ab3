/**
 * A chat as the sidebar lists it: what `GET /api/chats` answers with and the server renders,
 * so the browser and the store share it without either importing the other.
 */
export interface ChatSummary {
  id: string;
  title: string | null;
  updatedAt: number;
}
