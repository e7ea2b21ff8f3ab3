/**
 * Chat spellings visitors type for whole words ("pq", "qdo", "oq", "vc", "p/", "whats",
 * "youd"): read as the words they stand for before the question is searched and answered. Left
 * as typed, "pq dá pau qdo altero…?" weighed "pq" and "qdo" as the rarest words there are, and
 * was refused as off-topic; "pq…?" asks why, which the answer reads from "por que".
 *
 * Only spellings with no other common reading are listed: "td" is also HTML's cell, "mt" a
 * Brazilian state, "bc" a calculator, "q" and "n" names in code.
 */

/** Each chat spelling, lower case, and what it stands for. */
const SPELLINGS: ReadonlyMap<string, string> = new Map([
  ["pq", "por que"],
  ["oq", "o que"],
  ["qdo", "quando"],
  ["qnd", "quando"],
  ["qndo", "quando"],
  ["vc", "você"],
  ["vcs", "vocês"],
  ["tb", "também"],
  ["tbm", "também"],
  ["mto", "muito"],
  ["mta", "muita"],
  ["msm", "mesmo"],
  ["hj", "hoje"],
  ["cmg", "comigo"],
  ["ngm", "ninguém"],
  ["qlq", "qualquer"],
  ["qq", "qualquer"],
  ["abt", "about"],
  // English contractions typed without the apostrophe: "whats" is no word, "what's" is a
  // question word and a stopword. "its", "id", "ill", "were", "lets", "wont" are words too.
  ...[
    "whats",
    "wheres",
    "hows",
    "whos",
    "thats",
    "theres",
    "dont",
    "doesnt",
    "didnt",
    "isnt",
    "arent",
    "wasnt",
    "cant",
    "couldnt",
    "shouldnt",
    "wouldnt",
    "havent",
    "hasnt",
    "im",
    "ive",
    "youre",
    "theyre",
    "youve",
    "weve",
    "theyve",
    "werent",
    "hadnt",
    "mustnt",
    "youd",
    "theyd",
    "youll",
    "theyll",
    "itll",
  ].map((
    w,
  ): [string, string] => [
    w,
    w.replace(/(nt|s|m|ve|re|d|ll)$/, (e) => e === "nt" ? "n't" : `'${e}`),
  ]),
]);

/** A chat spelling as a word of its own, or "p/", "c/", "s/", "w/", "w/o" before a word. */
const CHAT_WORD =
  /(?<![\p{L}\p{N}_./'’-])(?:(\p{L}{2,8})(?![\p{L}\p{N}_/.'’-])|([pcsw])\/(o)?(?=\s+\p{L}))/giu;

const SLASHED: Record<string, string> = { p: "para", c: "com", s: "sem", w: "with" };

/** `text` with each chat spelling written out; the rest as typed. */
export function spelledOut(text: string): string {
  return text.replace(CHAT_WORD, (match, word: string | undefined, slash, without) => {
    if (word !== undefined) {
      const full = SPELLINGS.get(word.toLowerCase());
      if (!full) return match;
      return /^\p{Lu}/u.test(word) ? full[0].toUpperCase() + full.slice(1) : full;
    }
    const letter = (slash as string).toLowerCase();
    if (without) return letter === "w" ? "without" : match;
    return SLASHED[letter];
  });
}
