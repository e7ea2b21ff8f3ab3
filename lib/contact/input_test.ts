import assert from "node:assert/strict";
import { HttpError } from "@/lib/http/errors.ts";
import { parseAssistantContext, parseContactInput } from "./input.ts";

const valid = { name: " Ana ", email: " ana@example.com ", message: "\n Olá \n" };

function refusal(body: unknown): string {
  try {
    parseContactInput(body);
  } catch (error) {
    assert.ok(error instanceof HttpError, String(error));
    assert.equal(error.code, "invalid_request");
    return error.message;
  }
  assert.fail(`accepted ${JSON.stringify(body)}`);
}

Deno.test("contact input: trims the three fields", () => {
  assert.deepEqual(parseContactInput(valid), {
    name: "Ana",
    email: "ana@example.com",
    message: "Olá",
  });
});

Deno.test("contact input: each bad field is refused by name", () => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ name: undefined }, "name"],
    [{ name: "   " }, "name"],
    [{ name: "x".repeat(101) }, "name"],
    [{ name: 42 }, "name"],
    [{ email: "ana" }, "email"],
    [{ email: "ana@localhost" }, "email"],
    [{ email: "a b@example.com" }, "email"],
    [{ email: `${"a".repeat(250)}@x.io` }, "email"],
    [{ message: "" }, "message"],
    [{ message: "x".repeat(4001) }, "message"],
    [{ message: null }, "message"],
  ];
  for (const [change, field] of cases) {
    const body = { ...valid, ...change };
    if (change[field] === undefined) delete body[field as keyof typeof body];
    assert.match(refusal(body), new RegExp(`"${field}"`), JSON.stringify(change));
  }
  assert.match(refusal({ ...valid, phone: "1" }), /"phone"/);
  assert.match(refusal([valid]), /JSON object/);
});

Deno.test("contact input: limits count characters, not UTF-16 units", () => {
  const message = "😀".repeat(4000);
  assert.equal(parseContactInput({ ...valid, message }).message, message);
});

Deno.test("contact input: the context header is kept only when well-formed", () => {
  const good = { chatId: "chat-1", locale: "pt-BR", visitor: "abc" };
  assert.deepEqual(parseAssistantContext(JSON.stringify(good)), good);
  for (
    const bad of [
      null,
      "",
      "not json",
      "[1]",
      JSON.stringify({ ...good, extra: 1 }),
      JSON.stringify({ ...good, chatId: 5 }),
      JSON.stringify({ chatId: "c", locale: "en" }),
      JSON.stringify({ ...good, visitor: "" }),
    ]
  ) {
    assert.equal(parseAssistantContext(bad), undefined, String(bad));
  }
});
