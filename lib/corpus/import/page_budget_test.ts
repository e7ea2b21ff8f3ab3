import assert from "node:assert/strict";
import fc from "fast-check";
import { parseHTML } from "linkedom";
import { recipePage, RECIPES } from "@/tests/support/fixture_site.ts";
import { DEFAULT_PAGE_BUDGET, measurePage, overBudget, type PageShape } from "./page_budget.ts";

/** The shape of the tree linkedom really builds (an iterative walk: deep trees must not overflow). */
function builtShape(html: string): PageShape {
  const { document } = parseHTML(html);
  const shape: PageShape = { elements: 0, depth: 0, work: 0 };
  const stack: Array<[Element, number]> = [...document.children].map((c) => [c as Element, 1]);
  while (stack.length) {
    const [el, d] = stack.pop()!;
    shape.elements++;
    shape.work += d * d;
    shape.depth = Math.max(shape.depth, d);
    for (const c of el.children) stack.push([c, d + 1]);
  }
  return shape;
}

// Markup the parser reads in its own way: implied end tags, void and raw-text elements,
// self-closing tags (only honoured in SVG/MathML), stray end tags, comments, quoted ">".
// deno-fmt-ignore
const TOKENS = [
  "<div>", "</div>", "<p>", "</p>", "<li>", "<ul>", "</ul>", "<svg>", "</svg>", "<path/>",
  "<div/>", "<title>", "</title>", "<script>", "</script>", "<br>", "</br>", "<!-- <div> -->",
  "<b>", "</x>", "<td>", "<tr>", "<table>", "<img src='>'>", '<a href="x>y">', "</a>", "text",
  "<![CDATA[<div>]]>", "<!doctype html>", "</ div>", "<?x <div>?>", "<DIV class=a>",
  "<textarea><div></textarea>", "<math>", "<mi>", "<option>", "<select>", "<h1>", "<svg/>",
  "<title/>", "<foreignObject>", "< div>", "<input>", "<dd>", "<dt>", "<html>", "<body>", "<head>",
  "<script/>", "<style>a>b{}</style>", "<!-->", "<li/>", "<p / >",
];

Deno.test("the budget pass measures the same tree linkedom builds, whatever the markup", () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...TOKENS), { maxLength: 300 }), (tokens) => {
      const html = tokens.join("");
      assert.deepEqual(measurePage(html), builtShape(html), html);
    }),
    { numRuns: 3000 },
  );
  for (let i = 0; i < RECIPES.length; i++) {
    const html = recipePage(i, "https://aurora.example");
    assert.deepEqual(measurePage(html), builtShape(html));
    assert.equal(overBudget(html, DEFAULT_PAGE_BUDGET), null);
  }
});

Deno.test("pages past the depth, element, work or size bounds are refused with the reason", () => {
  const nested = (depth: number) =>
    `<main>${"<div>".repeat(depth)}x${"</div>".repeat(depth)}</main>`;
  assert.match(
    overBudget(nested(2000), DEFAULT_PAGE_BUDGET)!,
    /^nested 2001 elements deep, more than the 256 allowed \(over the page budget/,
  );
  assert.match(overBudget(nested(150_000), DEFAULT_PAGE_BUDGET)!, /^nested 150001 elements deep/);
  // Unclosed elements nest too; a stray end tag of another name closes nothing.
  assert.equal(measurePage("<span></b>".repeat(1000)).depth, 1000);
  assert.equal(measurePage("<div/>".repeat(1000)).depth, 1000);
  assert.equal(measurePage(`<ul>${"<li>item".repeat(1000)}</ul>`).depth, 2);
  assert.match(
    overBudget("<p>a</p>".repeat(60_000), DEFAULT_PAGE_BUDGET)!,
    /^60000 elements, more than the 50000 allowed/,
  );
  const heavy = `<div>${"<div>".repeat(200)}x${"</div>".repeat(200)}</div>`.repeat(40);
  assert.match(overBudget(heavy, DEFAULT_PAGE_BUDGET)!, /^nesting too heavy \(depth² summed/);
  assert.match(
    overBudget(`<p>${"é".repeat(600)}</p>`, { ...DEFAULT_PAGE_BUDGET, maxBytes: 1000 })!,
    /^larger than the size cap of 1000 bytes$/,
  );
  assert.equal(overBudget(nested(200), DEFAULT_PAGE_BUDGET), null);
});
