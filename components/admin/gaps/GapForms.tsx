/** The forms of /admin/gaps that answer a group: with a text, with a page, or sent again. */

import type { GapMessages } from "@/lib/i18n/gaps.ts";
import type { CandidatePage } from "@/lib/gaps/answer_pages.ts";
import { entryQuestion } from "@/lib/text/faq_heading.ts";

/** A save that did not happen: the owner's input, shown again with why (400, 409 or 503). */
export interface Retry {
  status: 400 | 409 | 503;
  message: string;
  /** What the owner sent: action, id, question, answer, lang, pageId, page. */
  sent: Record<string, string>;
}

/** Answers a question with a page of the site: the visitors' wording then finds that page. */
export function PointForm(
  { g, action, question, lang, page = "", candidates }: {
    g: GapMessages;
    action: string;
    question: string;
    lang: "pt" | "en";
    page?: string;
    /** The pages the search found for the question: one is picked, or another named. */
    candidates: CandidatePage[];
  },
) {
  // The question visitors went on to, when it is one of the pages found: that page is picked.
  const followed = candidates.find((c) => sameQuestion(entryQuestion(c.title), page));
  return (
    <form method="post" action={action} class="gap-form">
      <input type="hidden" name="action" value="point" />
      <input type="hidden" name="lang" value={lang} />
      <label>
        {g.question}
        <input name="question" value={question} required maxLength={300} />
      </label>
      {candidates.length > 0
        ? (
          <fieldset class="gap-pages">
            <legend>{g.candidates}</legend>
            {candidates.map((c) => (
              <label key={c.id} class="gap-page">
                <input
                  type="radio"
                  name="pageId"
                  value={c.id}
                  required
                  checked={c === followed}
                />
                <span>
                  {c.title}{" "}
                  <a href={c.url} target="_blank" rel="noopener">
                    {g.open}
                    <span class="visually-hidden">({g.newTab})</span>
                  </a>
                  <small class="gap-excerpt">{c.excerpt}</small>
                </span>
              </label>
            ))}
            {/* Another page, by its title: the question visitors went on to, when there is one. */}
            <label class="gap-page">
              <input
                type="radio"
                name="pageId"
                value=""
                required
                checked={page !== "" && !followed}
              />
              <span>{g.otherPage}</span>
            </label>
            <input name="page" value={page} maxLength={300} aria-label={g.page} />
          </fieldset>
        )
        : (
          <label>
            {g.page}
            <input name="page" value={page} required maxLength={300} />
          </label>
        )}
      <p class="gap-meta">{g.pageHelp}</p>
      <button type="submit" class="button">{g.point}</button>
    </form>
  );
}

/** Answers a question with a text of the team's, or with `id` edits that answer. */
export function AnswerForm(
  { g, action, question, lang, answer = "", id }: {
    g: GapMessages;
    action: string;
    question: string;
    lang: "pt" | "en";
    answer?: string;
    id?: string;
  },
) {
  return (
    <form method="post" action={action} class="gap-form">
      <input type="hidden" name="action" value="save" />
      {id && <input type="hidden" name="id" value={id} />}
      <label>
        {g.question}
        <input name="question" value={question} required maxLength={300} />
      </label>
      <label>
        {g.answerText}
        <textarea name="answer" required maxLength={4000} rows={4}>{answer}</textarea>
      </label>
      <label>
        {g.lang}
        <select name="lang">
          <option value="pt" selected={lang === "pt"}>Português</option>
          <option value="en" selected={lang === "en"}>English</option>
        </select>
      </label>
      <button type="submit" class="button">{g.save}</button>
    </form>
  );
}

/** The owner's input sent back, with what went wrong, and a way back to the list. */
export function RetryForm({ retry: { status, message, sent }, g, action }: {
  retry: Retry;
  g: GapMessages;
  action: string;
}) {
  const lang = sent.lang === "en" ? "en" : "pt";
  const question = sent.question ?? "";
  return (
    <>
      <h1>{g.notSaved}</h1>
      <p role="alert">
        {status === 503 ? g.storeDown : (
          <>
            {g.fixBelow} <strong>{message}</strong>
          </>
        )}
      </p>
      {sent.action === "point"
        ? (
          <form method="post" action={action} class="gap-form">
            <input type="hidden" name="action" value="point" />
            <input type="hidden" name="lang" value={lang} />
            {sent.pageId && <input type="hidden" name="pageId" value={sent.pageId} />}
            <label>
              {g.question}
              <input name="question" value={question} required maxLength={300} />
            </label>
            {!sent.pageId && (
              <label>
                {g.page}
                <input name="page" value={sent.page ?? ""} required maxLength={300} />
              </label>
            )}
            <button type="submit" class="button">{g.point}</button>
          </form>
        )
        : (
          <AnswerForm
            g={g}
            action={action}
            question={question}
            lang={lang}
            answer={sent.answer ?? ""}
            id={sent.id}
          />
        )}
      <p>
        <a href={action}>{g.backToList}</a>
      </p>
    </>
  );
}

/** Whether two questions are the same but for case, spacing and a final "?". */
function sameQuestion(a: string, b: string): boolean {
  const plain = (q: string) =>
    q.toLocaleLowerCase().replace(/\s+/g, " ").replace(/\s*\?$/, "").trim();
  return plain(a) !== "" && plain(a) === plain(b);
}
