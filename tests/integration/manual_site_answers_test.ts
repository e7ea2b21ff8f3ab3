/**
 * Offline answers on a real manual-style site (tests/fixtures/harden, the Securing Debian
 * Manual, pt-BR and en): long sections whose visitors ask about a detail, not FAQ entries. Each
 * case is a defect the site showed when first measured, asked as a visitor asked it.
 */
import assert from "node:assert/strict";
import { type BeirDoc, parseJsonl } from "@/lib/search/beir.ts";
import type { SiteSearch } from "@/lib/search/types.ts";
import { askOffline } from "@/lib/eval/offline_answer.ts";
import { beirSiteSearch } from "@/scripts/eval_answers.ts";

const searches = new Map<string, SiteSearch>();

/** The site's search in one language, built once. */
function siteSearch(lang: "pt" | "en"): SiteSearch {
  let search = searches.get(lang);
  if (!search) {
    const text = Deno.readTextFileSync(
      new URL(`../fixtures/harden/corpus_${lang}.jsonl`, import.meta.url),
    );
    searches.set(lang, search = beirSiteSearch(parseJsonl<BeirDoc>(text, "corpus"), lang));
  }
  return search;
}

/** The offline answer and the ids of the passages it cites, by their [N]. */
async function answer(lang: "pt" | "en", question: string) {
  const { text, passages } = await askOffline(siteSearch(lang), question);
  const cited = [...text.matchAll(/\[(\d+)\]/g)].map((m) => passages[Number(m[1]) - 1].id);
  return { text, cited: [...new Set(cited)] };
}

Deno.test("manual site: a sentence sharing only the question's frame is not spliced in", async () => {
  const { text, cited } = await answer(
    "pt",
    "vale a pena deixar o /home e o /tmp numa partição separada? ajuda em quê?",
  );
  // Before: "…devem estar separados em uma partição." [1] "Também vale a pena verificar o
  // http://yavipin.sourceforge.net/…" [2], a VPN page's sentence that shares "vale a pena".
  assert.deepEqual(cited, ["3.2.1"], text);
  assert.doesNotMatch(text, /yavipin/);
});

Deno.test("manual site: a listing's lines do not fill an FAQ answer's room", async () => {
  const { text, cited } = await answer(
    "pt",
    "tô vendo umas linhas escritas -- MARK -- no log do sistema, será que fui invadido?",
  );
  // Before: the entry's three log lines ("Dec 30 07:33:36 debian -- MARK.", a stop added to
  // each) took the room of "Isto não indica qualquer tipo de comprometimento…".
  assert.deepEqual(cited, ["12.1.2.3"], text);
  assert.doesNotMatch(text, /Dec 30/);
  assert.match(text, /Isto não indica qualquer tipo de comprometimento/);
});

Deno.test("manual site: the calibrated gate answers what a section says in other sentences", async () => {
  // The visitor's words are spread over the section ("IDS", "alertas" here; "vale a pena" is
  // the frame): the best sentence holds under 0.3 of the question, which the gate's old
  // threshold (picked on FaQuAD alone) refused although the search found the section first.
  const pt = await answer(
    "pt",
    "vale a pena instalar um IDS se ninguém vai ficar de olho nos alertas?",
  );
  assert.deepEqual(pt.cited, ["10.3"], pt.text);
  assert.match(pt.text, /Detecção de intrusão é perda de tempo se você não for alertar ninguém/);
  const en = await answer("en", "Is typing xhost + to get remote X apps working a bad idea?");
  assert.deepEqual(en.cited, ["5.4"], en.text);
  assert.match(en.text, /This allows any X client to connect to your system/);
});

Deno.test("manual site: a how is answered with the setting its sentence leads into", async () => {
  // "…alterando o arquivo de configuração /etc/cups/cupsd.conf:" ⏎ "Listen 127.0.0.1:631": the
  // line was split off as a heading-like line of its own, and the answer ended at "cupsd.conf."
  const pt = await answer("pt", "Como faço o cups escutar só na máquina local?");
  assert.deepEqual(pt.cited, ["5.5"], pt.text);
  assert.match(pt.text, /cupsd\.conf: Listen 127\.0\.0\.1:631”/);
  const en = await answer(
    "en",
    "What line in proftpd.conf keeps users inside their home directory?",
  );
  assert.deepEqual(en.cited, ["5.3"], en.text);
  assert.match(en.text, /global section to enable this chroot feature: DefaultRoot ~”/);
});

Deno.test("manual site: an entry's log lines are not quoted, its command is, after its lead-in", async () => {
  // Before: four "May 1 12:35:25 linux kernel: possible SYN flooding on port X." lines, each
  // cut at its inner stop ("Sending cookies." alone), filled the answer; the netstat command
  // came apart from "…for example:" as "Linux:~# netstat … | wc -l." (capital and stop added).
  const { text, cited } = await answer(
    "en",
    "My logs are full of 'possible SYN flooding' lines, am I under attack?",
  );
  assert.deepEqual(cited, ["12.1.2.5"], text);
  assert.doesNotMatch(text, /May 1|Sending cookies/);
  assert.match(text, /for example: linux:~# netstat -ant \| grep SYN_RECV \| wc -l”/);
});
