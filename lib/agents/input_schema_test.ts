import assert from "node:assert/strict";
import { operationInputSchema, toJsonSchema, validateArguments } from "./input_schema.ts";
import type { AgentParameter } from "./types.ts";

const params: AgentParameter[] = [
  { name: "id", in: "path", required: true, schema: { type: "integer" }, description: "Item id" },
  {
    name: "tags",
    in: "query",
    required: false,
    schema: { type: "array", items: { type: "string" } },
  },
  { name: "X-Tenant", in: "header", required: false, schema: { type: "string" } },
];
const body = {
  required: true,
  schema: {
    type: "object",
    required: ["email"],
    properties: { email: { type: "string", format: "email" }, note: { type: "string" } },
  },
};

Deno.test("the input schema holds parameters by name and the JSON body under body", () => {
  assert.deepEqual(operationInputSchema(params, body), {
    type: "object",
    properties: {
      id: { type: "integer", description: "Item id" },
      tags: { type: "array", items: { type: "string" } },
      "X-Tenant": { type: "string" },
      body: body.schema,
    },
    required: ["id", "body"],
    additionalProperties: false,
  });
  const optional = operationInputSchema([], { ...body, required: false });
  assert.deepEqual(optional.required, []);
});

Deno.test("validateArguments accepts valid arguments", () => {
  const schema = operationInputSchema(params, body);
  assert.deepEqual(
    validateArguments(schema, { id: 3, tags: ["a"], body: { email: "a@b.co" } }),
    [],
  );
});

Deno.test("validateArguments lists readable problems with their place", () => {
  const schema = operationInputSchema(params, body);
  const problems = validateArguments(schema, {
    id: "3",
    tags: [1],
    body: { email: "nope", extra: 1 },
    admin: true,
  });
  assert.deepEqual(problems, [
    'id: Instance type "string" is invalid. Expected "integer".',
    'tags.0: Instance type "number" is invalid. Expected "string".',
    'body.email: String does not match format "email".',
    'Property "admin" is not allowed.',
  ]);
  assert.deepEqual(validateArguments(schema, {}), [
    'Instance does not have required property "id".',
    'Instance does not have required property "body".',
  ]);
});

Deno.test("toJsonSchema turns OpenAPI 3.0 schema keywords into JSON Schema", () => {
  assert.deepEqual(
    toJsonSchema({
      type: "object",
      required: ["id", "age"],
      properties: {
        id: { type: "string", readOnly: true },
        age: { type: "integer", minimum: 0, exclusiveMinimum: true, example: 5 },
        nick: { type: "string", nullable: true, xml: { name: "n" } },
        kind: { enum: ["a", "b"], nullable: true },
        list: { type: "array", items: { type: "number", maximum: 9, exclusiveMaximum: false } },
      },
      discriminator: { propertyName: "kind" },
    }),
    {
      type: "object",
      required: ["age"],
      properties: {
        age: { type: "integer", exclusiveMinimum: 0, examples: [5] },
        nick: { type: ["string", "null"] },
        kind: { enum: ["a", "b", null] },
        list: { type: "array", items: { type: "number", maximum: 9 } },
      },
    },
  );
  // Nested in combinators too.
  assert.deepEqual(toJsonSchema({ anyOf: [{ type: "string", nullable: true }] }), {
    anyOf: [{ type: ["string", "null"] }],
  });
});
