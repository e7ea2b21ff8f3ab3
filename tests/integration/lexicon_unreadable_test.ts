/**
 * The shipped lexicon is an aid, not a dependency: a deployment that cannot read it (left out
 * of the upload, or denied) still answers every question, untranslated, instead of failing
 * the turn of each question whose words alone tell its language.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { spawnAppProcess } from "../support/app_process.ts";
import { newChatId, postChat, readSse, streamedText, userMessage } from "../support/chat_client.ts";
import { tempKvPath } from "../support/temp.ts";
import { SHIPPED_LEXICON_URL } from "@/lib/search/lexicon.ts";

Deno.test("lexicon: an app that cannot read the shipped lexicon still answers", async () => {
  {
    const app = await spawnAppProcess(tempKvPath(), {}, {
      denyRead: [fileURLToPath(SHIPPED_LEXICON_URL)],
    });
    try {
      // Keywords only: their language is told by the lexicon's vocabulary, the read that failed.
      for (const question of ["deploy deno classic?", "stream answers live?"]) {
        const res = await postChat(app.url, { id: newChatId(), message: userMessage(question) });
        assert.equal(res.status, 200);
        const { chunks } = await readSse(res);
        assert.ok(
          !chunks.some((c) => c.type === "error"),
          `${question}: ${JSON.stringify(chunks)}`,
        );
        assert.ok(streamedText(chunks).length > 20, `${question}: ${JSON.stringify(chunks)}`);
      }
    } finally {
      await app.kill();
    }
  }
});
