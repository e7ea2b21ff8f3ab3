/**
 * Rate limits count requests per clock minute (lib/store/limits.ts): a test that expects the
 * third request of a minute refused fails when the minute turns between its requests. Waits,
 * when the current minute has less than `marginMs` left, until the next one has begun.
 */
export async function awayFromMinuteTurn(marginMs = 10_000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
