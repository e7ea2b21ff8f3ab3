/**
 * Bracketed numbers in a sentence the offline model quotes. Only the model's own `[N]` may
 * read as a citation, so a source's `[N]` must change, but how depends on what it is:
 *
 * - in code ("squares[2]()", a REPL's ">>> y [10]") it is an index or a list, and "(2)" would
 *   make it a call or a tuple: the word holding it is quoted as inline code, where neither
 *   the stream's citation filter nor the renderer reads citations;
 * - in prose ("criado em 1991[1]") it is the source's footnote, written "(1)" as before;
 * - already inside inline code it is left as it is.
 */

/**
 * A sentence that holds code: a REPL prompt, a call ("append(10)"), an index used, or an
 * empty list ("mudou de [] para [10]"), which no footnote is.
 */
const CODE_CONTEXT = />>>|[\p{L}\p{N}_\])]\(|[\p{L}\p{N}_]\[\d+\][(\[.]|\[\]/u;
const BRACKETED = /\[(\d+)\]/g;
const TRAILING_PUNCTUATION = /[.,;:!?]/;

export function quoteBrackets(text: string): string {
  if (!text.includes("[")) return text;
  const code = CODE_CONTEXT.test(text);
  let out = "";
  let done = 0;
  for (const span of outsideInlineCode(text)) {
    out += text.slice(done, span.start);
    const part = text.slice(span.start, span.end);
    out += code ? codeWords(part) : part.replace(BRACKETED, "($1)");
    done = span.end;
  }
  return out + text.slice(done);
}

/** The stretches of `text` outside backtick code spans (an unclosed backtick opens none). */
function* outsideInlineCode(text: string): Generator<{ start: number; end: number }> {
  let start = 0;
  while (start < text.length) {
    const open = text.indexOf("`", start);
    if (open < 0) break;
    const close = text.indexOf("`", open + 1);
    if (close < 0) break;
    yield { start, end: open };
    start = close + 1;
  }
  yield { start, end: text.length };
}

/**
 * Each word that holds a bracketed number, in backticks: the word runs to the nearest
 * spaces, less trailing punctuation. One index scan, so a long word costs linear time.
 */
function codeWords(part: string): string {
  let out = "";
  let done = 0;
  for (const m of part.matchAll(BRACKETED)) {
    if (m.index < done) continue; // inside a word already quoted
    let start = m.index;
    while (start > done && !/\s/.test(part[start - 1])) start--;
    let end = m.index + m[0].length;
    while (end < part.length && !/\s/.test(part[end])) end++;
    while (end > m.index + m[0].length && TRAILING_PUNCTUATION.test(part[end - 1])) end--;
    out += `${part.slice(done, start)}\`${part.slice(start, end)}\``;
    done = end;
  }
  return out + part.slice(done);
}
