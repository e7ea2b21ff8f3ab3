/** Sentence splitting shared by the offline model's answer builders. */

/**
 * Where a stop before a lower-case word or a number ends no sentence: an abbreviation with
 * inner stops ("e.g.", "i.e.", "a.C."), a common one without ("ex. de", "etc.", "vs.", "cf.",
 * "cap. 3") or an interpreter's "..." continuation prompt. Other stops before a
 * lower-case word still end one, since some sites start sentences in lower case.
 */
const NO_END =
  /(?:^|[\s(])(?:\p{L}{1,2}\.\p{L}{1,2}\.|\.\.\.|(?:etc|ex|vs|cf|aprox|approx|p[aá]gs?|pp|obs|fig|cap|vol|n[ºo]|sr|sra|dr|dra|prof)\.)$/iu;

const YES_NO = /^\s*(?:sim|n[aã]o|yes|no)\s*$/iu;

/**
 * Lines that are no sentence a visitor should be quoted: a numbered section heading the page
 * ran into its text ("13.3.1. Software in the Public Interest", split as "13.3.1." on its
 * own) and a footnote's body ("[7] Use the …-REQUEST address for that."), which says nothing
 * without the sentence that points at it. A one-level number ("1. Install…") is a step.
 */
const NOT_QUOTABLE = /^\s*(?:\d+(?:\.\d+)+\.?(?:\s+[^.!?…]*)?|\[\d+\]\s.*)$/u;

/** A list item's number or a footnote mark left alone by the split: "3.", "[2]", "(2).". */
const NUMBER_ONLY = /^(?:\d{1,2}[.)]|[[(]\d{1,2}[\])]\.?)$/u;

/** A numbered list item's number: "1. ", "12) ". */
const LIST_NUMBER = /^\s*\d{1,2}[.)]\s+(?=\S)/u;

/** A shell's prompt before a command: "$ ", "linux:~# ", "ana@host:~/src$ ". */
export const PROMPT = String.raw`(?:\$\s+|[\w.-]+(?:@[\w.-]+)?:~?[\w/.-]*[#$]\s+)?`;

/** A command shown on a line of its own: "apt-get source foo", "$ lsb_release -a". */
const COMMAND = new RegExp(String.raw`^${PROMPT}[a-z][\w.+\/-]*(?:\s+\S+){0,7}$`, "u");
/** A sentence whose last word needs what follows: "…execute either:", "…by running". */
const LEAD_IN = /(?::|\s\p{Ll}+)$/u;
/**
 * A line of configuration or code a colon shows ("Listen 127.0.0.1:631", "DefaultRoot ~",
 * "/usr/sbin/update-inetd --disable telnet", "options { … }"): at most eight words, no
 * closing stop, and a mark prose lacks: a path first, an option, a brace, an operator, an
 * address or a "name:value". A capital first word ("Listen") keeps it from COMMAND. A log's
 * line (a time of day, "Dec 30 07:33:36 debian -- MARK --") is a listing the page shows as an
 * example, not a setting: it stays a line of its own, as does one with a "?" the split ends at.
 */
const SHOWN_LINE =
  /^(?!.*[.!?…]$)(?!.*(?:\d:\d\d:\d\d|\?))(?=\/|.*(?:\s--?[a-z]|[{}=~<>|]|\d\.\d|[\w\]]:[\w/]))\S+(?:\s+\S+){0,7}$/u;

/**
 * Whether `next` is what a lead-in `line` shows: a command, or code a colon introduces. A
 * block's first line ("acl internal {") would be quoted cut, so one whose braces do not close
 * is neither.
 */
function shows(line: string, next: string): boolean {
  if (next.split("{").length !== next.split("}").length) return false;
  if (COMMAND.test(next) && !/[.!?…]$/u.test(next)) return true;
  return line.endsWith(":") && SHOWN_LINE.test(next);
}

/**
 * The page's lines, each command line put back after the sentence that leads into it ("…you
 * can download any source package by running" ⏎ "apt-get source foo"): apart, the lead-in was
 * quoted with a stop added and no command ("…by running."), or the command alone. A colon
 * sets the command apart, and it is quoted as the page shows it, with no stop added.
 */
function withLeadInCommands(text: string): string[] {
  const lines = text.split(/\n+/);
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trimEnd();
    const next = lines[i + 1]?.trim();
    const leadsIn = LEAD_IN.test(line) && line.split(/\s+/).length >= 5;
    if (leadsIn && next && shows(line, next)) {
      out.push(`${line}${line.endsWith(":") ? "" : ":"} ${next}`);
      i++;
    } else out.push(line);
  }
  return out;
}

/** How far from a sentence's end the command or setting a lead-in shows can start. */
const SHOWN_CHARS = 240;

/** Whether a sentence ends with the command a lead-in shows: it takes no stop of its own. */
export function endsWithCommand(sentence: string): boolean {
  // The shown line may hold ": " itself ("root:x:::: (X=…)"): each colon is tried as the
  // lead-in's, within the last SHOWN_CHARS only (a line of at most eight words), so a long
  // run of colons costs one pass.
  const from = Math.max(0, sentence.length - SHOWN_CHARS);
  for (const colon of sentence.slice(from).matchAll(/:\s+(?=\S)/gu)) {
    const tail = sentence.slice(from + colon.index + colon[0].length);
    if (COMMAND.test(tail) ? !/[.!?…]$/u.test(tail) : SHOWN_LINE.test(tail)) return true;
  }
  return false;
}

/**
 * Whether a "sentence" is a bare line: short and with no closing punctuation, a sub-heading kept
 * in the passage text or a line of a listing ("Dec 30 07:33:36 debian -- MARK --"), which
 * answers nothing on its own.
 */
export function isBareLine(text: string): boolean {
  return LOG_LINE.test(text) || (!/[.!…:;)"”]$/u.test(text) && text.split(/\s+/).length < 8);
}

/**
 * A log's line, by the time stamp it opens with ("May 1 12:35:25 linux kernel: possible SYN
 * flooding on port X.", "2024-05-01 12:35:25 ERROR …"): an example a page shows, however it
 * ends, never the answer.
 */
const LOG_LINE = /^\s*(?:\p{L}{3}\s+\d{1,2}|\d{4}-\d\d-\d\d)[\sT]+\d{1,2}:\d\d:\d\d\b/u;

/** Splits passage text into sentences (and lines: a heading or list item is one). */
export function sentences(text: string): string[] {
  const out: string[] = [];
  for (const line of withLeadInCommands(text)) {
    if (NOT_QUOTABLE.test(line)) continue;
    // A log's line is one example, whatever stops it holds ("…on port X. Sending cookies.").
    if (LOG_LINE.test(line)) {
      out.push(line);
      continue;
    }
    const lineStart = out.length;
    // Pieces of one sentence, joined once: joining as they come rescans a long merged run.
    let pending: string[] = [];
    // A numbered item's number is no sentence of its own ("1." then "Instale o pacote.").
    for (const piece of line.replace(LIST_NUMBER, "").split(/(?<=[.!?…])\s+/u)) {
      const last = pending.at(-1);
      if (last !== undefined && !(NO_END.test(last) && /^[\p{Ll}\p{N}]/u.test(piece))) {
        out.push(pending.join(" "));
        pending = [];
      }
      pending.push(piece);
    }
    // A lone word with no stop after a sentence of its line is a heading the page's text ran
    // into ("…alternative. Databases"); a one-word line (a list item) or a bare yes or no stays.
    const tail = pending.join(" ");
    const runIn = out.length > lineStart && /^\p{L}+$/u.test(tail.trim()) && !YES_NO.test(tail);
    if (pending.length && !runIn) out.push(tail);
  }
  return out
    .flatMap(afterTranscript)
    .map((s) => s.replace(/\s+/g, " ").trim())
    .filter((s) => s.length > 0 && /[\p{L}\p{N}]/u.test(s) && !NUMBER_ONLY.test(s));
}

/** An interpreter's output: a number, a closing bracket or quote, or a constant. */
const OUTPUT_END = /(?:[\p{N}\])'"]|^True|^False|^None)$/u;
const PROSE_START = /^\p{Lu}\p{Ll}+$/u;
const PROSE_WORD = /^\p{Ll}+,?$/u;

/**
 * A sentence split where the text resumes after an interpreter transcript that its page's
 * flattened layout ran into it: ">>> squares[4]() 16 This happens because…" is the example
 * and then the reason. The prose starts at a capitalised word, after the prompt's output,
 * followed by two lower-case words.
 */
function afterTranscript(sentence: string): string[] {
  if (!sentence.includes(">>>")) return [sentence];
  const words = sentence.split(" ");
  const out: string[] = [];
  let start = 0;
  let prompt = false;
  for (let i = 0; i + 2 < words.length; i++) {
    if (words[i] === ">>>") prompt = true;
    if (
      prompt && i > start && PROSE_START.test(words[i]) && OUTPUT_END.test(words[i - 1]) &&
      PROSE_WORD.test(words[i + 1]) && PROSE_WORD.test(words[i + 2])
    ) {
      out.push(words.slice(start, i).join(" "));
      start = i;
      prompt = false;
    }
  }
  out.push(words.slice(start).join(" "));
  return out;
}
