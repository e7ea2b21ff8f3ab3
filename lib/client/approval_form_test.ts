import assert from "node:assert/strict";
import { formFields } from "./approval_form.ts";

Deno.test("formFields: an e-mail is a one-line field with its format, a long message a text area", () => {
  const fields = formFields({
    type: "object",
    properties: {
      body: {
        type: "object",
        required: ["email"],
        properties: {
          email: { type: "string", format: "email", maxLength: 254 },
          message: { type: "string", maxLength: 4000 },
          count: { type: "integer" },
          topic: { type: "string", enum: ["sales", "support"] },
        },
      },
    },
  });
  assert.deepEqual(
    fields.map((f) => [f.key, f.kind, f.format ?? null, f.required]),
    [
      ["body.email", "string", "email", true],
      ["body.message", "text", null, false],
      ["body.count", "integer", null, false],
      ["body.topic", "enum", null, false],
    ],
  );
});
