/**
 * A producer in its own process for stream_log_test.ts: streams up to 300 text
 * deltas into the stream log of the KV file `Deno.args[0]`, stopping when asked,
 * and prints when it saw the stop.
 */
import { createStreamLog } from "../stream_log.ts";

const kv = await Deno.openKv(Deno.args[0]);
const writer = createStreamLog(kv).open("chat-1", "s1", "v1");
let stopSeenAt = 0;
writer.onStop(() => stopSeenAt = Date.now());
for (let i = 0; i < 300 && !writer.stopped(); i++) {
  writer.append({ type: "text-delta", id: "t1", delta: `d${i} ` });
  await new Promise((r) => setTimeout(r, 10));
}
await writer.end(writer.stopped() ? "stopped" : "finished");
console.log(JSON.stringify({ stopSeenAt, chunks: writer.stats() }));
kv.close();
