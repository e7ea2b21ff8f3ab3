/**
 * The turn's budget of tool calls: how many one model step and the whole turn
 * may make, and how many run at once.
 *
 * A model can put hundreds of tool calls in one step; each agent call is an
 * outgoing HTTP request. A call over a bound is refused, not dropped: it gets
 * a tool error (the model reads why, the provider's next call finds every call
 * answered), and nothing runs for it.
 */
import { DEFAULT_TOOL_CALL_LIMITS, type ToolCallLimits } from "@/lib/config.ts";

/** Why a call over a bound was refused; its message is what the model reads. */
export class ToolCallLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ToolCallLimitError";
  }
}

/** One turn's count of tool calls and its concurrency gate. */
export interface CallBudget {
  /**
   * Takes a place for a call, the `made`-th earlier one of its step: null when it may go
   * on, else the error it is refused with.
   */
  take(made: number): ToolCallLimitError | null;
  /** Runs `task` once fewer than `concurrency` tasks of this budget are running. */
  run<T>(task: () => Promise<T>): Promise<T>;
}

/** A budget for one turn (`limits` default to `DEFAULT_TOOL_CALL_LIMITS`). */
export function callBudget(limits: ToolCallLimits = DEFAULT_TOOL_CALL_LIMITS): CallBudget {
  let taken = 0;
  return {
    take(made) {
      if (made >= limits.perStep) {
        return new ToolCallLimitError(
          `Refused, not run: one step may make at most ${limits.perStep} tool calls, and this step already made them. Make fewer calls at a time.`,
        );
      }
      if (taken >= limits.perTurn) {
        return new ToolCallLimitError(
          `Refused, not run: one answer may make at most ${limits.perTurn} tool calls, and this one already made them. Answer with what you have.`,
        );
      }
      taken++;
      return null;
    },
    run: gate(limits.concurrency),
  };
}

/** A gate that lets at most `width` tasks run at once, the others in order of arrival. */
function gate(width: number): CallBudget["run"] {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async (task) => {
    // A finished task hands its place straight to the next waiting one, so a task that
    // arrives in between cannot take it too.
    if (running >= width) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
