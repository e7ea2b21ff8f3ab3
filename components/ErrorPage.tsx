/** A full-page error with a way back to the chat. */
export function ErrorPage(
  { status, title, body, back, detail }: {
    status: number;
    title: string;
    body: string;
    back: string;
    detail?: string;
  },
) {
  return (
    <main class="error-page">
      <p class="error-status">{status}</p>
      <h1>{title}</h1>
      <p>{body}</p>
      {detail && <pre class="error-detail">{detail}</pre>}
      <a class="button" href="/">{back}</a>
    </main>
  );
}
