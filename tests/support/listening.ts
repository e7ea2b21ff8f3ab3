/**
 * Child processes of tests and benches (a server, a replay server) print
 * "listening <port>" on stdout once ready.
 */

/**
 * Reads `stdout` until the "listening <port>" line and returns the port; the
 * rest is drained so the child never blocks on a full pipe (and handed to
 * `onOutput`, when given, with what came before). Throws, with what it printed,
 * when the child ends first.
 */
export async function listeningPort(
  stdout: ReadableStream<Uint8Array<ArrayBuffer>>,
  onOutput?: (text: string) => void,
): Promise<number> {
  const reader = stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  let match: RegExpExecArray | null;
  while (!(match = /listening (\d+)/.exec(out))) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`the child exited before listening: ${out}`);
    out += value;
  }
  onOutput?.(out);
  (async () => {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      onOutput?.(value);
    }
  })().catch(() => {});
  return Number(match[1]);
}
