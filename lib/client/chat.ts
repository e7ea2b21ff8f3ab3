/**
 * The AI SDK's chat on Preact signals: a `ChatState` whose fields are signals,
 * and a `Chat` class extending `AbstractChat`, as the SDK's own Vue and Svelte
 * bindings do. Components read `chat.messages` and re-render on change.
 */
import { batch, signal } from "@preact/signals";
import { AbstractChat, type ChatInit, type ChatState, type ChatStatus, type UIMessage } from "ai";

/** A `ChatState` backed by signals. Messages are replaced, never mutated, so renders see new identities. */
export class SignalChatState<M extends UIMessage> implements ChatState<M> {
  readonly messagesSignal = signal<M[]>([]);
  readonly statusSignal = signal<ChatStatus>("ready");
  readonly errorSignal = signal<Error | undefined>(undefined);

  constructor(messages: M[] = []) {
    this.messagesSignal.value = messages;
  }

  get messages(): M[] {
    return this.messagesSignal.value;
  }
  set messages(messages: M[]) {
    this.messagesSignal.value = [...messages];
  }
  get status(): ChatStatus {
    return this.statusSignal.value;
  }
  set status(status: ChatStatus) {
    this.statusSignal.value = status;
  }
  get error(): Error | undefined {
    return this.errorSignal.value;
  }
  set error(error: Error | undefined) {
    this.errorSignal.value = error;
  }

  pushMessage = (message: M) => {
    this.messagesSignal.value = [...this.messagesSignal.value, message];
  };
  popMessage = () => {
    this.messagesSignal.value = this.messagesSignal.value.slice(0, -1);
  };
  replaceMessage = (index: number, message: M) => {
    batch(() => {
      const next = this.messagesSignal.value.slice();
      // The SDK mutates the streaming message in place; a snapshot gives it a new identity.
      next[index] = this.snapshot(message);
      this.messagesSignal.value = next;
    });
  };
  snapshot = <T>(thing: T): T => structuredClone(thing);
}

/** A chat whose state lives in signals. */
export class Chat<M extends UIMessage> extends AbstractChat<M> {
  readonly signals: SignalChatState<M>;

  constructor({ messages, ...init }: ChatInit<M>) {
    const state = new SignalChatState<M>(messages);
    super({ ...init, state });
    this.signals = state;
  }
}
