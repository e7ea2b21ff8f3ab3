import assert from "node:assert/strict";
import {
  type ApprovalSubject,
  canonicalJson,
  claimApproval,
  createApprovalSigner,
  newApprovalId,
} from "./approvals.ts";

const SECRET = "x".repeat(40);
const SUBJECT: ApprovalSubject = {
  chatId: "chat1",
  toolCallId: "call_1",
  toolName: "send_message",
  input: { to: "team", body: { text: "hi", tags: ["a", "b"] } },
  expiresAt: 1_800_000_000_000,
};

Deno.test("approvals: a signature verifies for exactly the subject it was made for", async () => {
  const signer = createApprovalSigner(SECRET);
  const signature = await signer.sign(SUBJECT);
  assert.match(signature, /^[A-Za-z0-9_-]{43}$/);
  assert.equal(await signer.verify(structuredClone(SUBJECT), signature), true);
  const altered: Array<[string, ApprovalSubject]> = [
    ["input", { ...SUBJECT, input: { to: "team", body: { text: "hi!", tags: ["a", "b"] } } }],
    ["input order of an array", {
      ...SUBJECT,
      input: { to: "team", body: { text: "hi", tags: ["b", "a"] } },
    }],
    ["tool", { ...SUBJECT, toolName: "delete_message" }],
    ["call id", { ...SUBJECT, toolCallId: "call_2" }],
    ["chat", { ...SUBJECT, chatId: "chat2" }],
    ["expiry", { ...SUBJECT, expiresAt: SUBJECT.expiresAt + 1 }],
  ];
  for (const [what, subject] of altered) {
    assert.equal(await signer.verify(subject, signature), false, `altered ${what}`);
  }
});

Deno.test("approvals: another secret, a mangled or foreign signature never verifies", async () => {
  const signer = createApprovalSigner(SECRET);
  const signature = await signer.sign(SUBJECT);
  assert.equal(await createApprovalSigner("y".repeat(40)).verify(SUBJECT, signature), false);
  const flipped = (signature[0] === "A" ? "B" : "A") + signature.slice(1);
  for (const bad of [flipped, signature.slice(1), "", "not base64!", `${signature}AA`]) {
    assert.equal(await signer.verify(SUBJECT, bad), false, JSON.stringify(bad));
  }
  // Not a plain HMAC of the secret: the key is derived for the approval domain.
  const plainKey = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(SECRET),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const data = new TextEncoder().encode(
    canonicalJson([
      SUBJECT.chatId,
      SUBJECT.toolCallId,
      SUBJECT.toolName,
      SUBJECT.input,
      SUBJECT.expiresAt,
    ]),
  );
  const plain = new Uint8Array(await crypto.subtle.sign("HMAC", plainKey, data));
  const plainB64 = btoa(String.fromCharCode(...plain)).replaceAll("+", "-").replaceAll("/", "_")
    .replace(/=+$/, "");
  assert.notEqual(plainB64, signature);
});

Deno.test("approvals: key order does not matter, at any depth", async () => {
  const signer = createApprovalSigner(SECRET);
  const a = await signer.sign({ ...SUBJECT, input: { a: 1, b: { c: [1, { d: 2, e: 3 }] } } });
  const b = await signer.sign({ ...SUBJECT, input: { b: { c: [1, { e: 3, d: 2 }] }, a: 1 } });
  assert.equal(a, b);
  assert.equal(canonicalJson({ b: 1, a: [{ z: 1, y: 2 }] }), '{"a":[{"y":2,"z":1}],"b":1}');
});

Deno.test("approvals: ids are apr_ and 20 base64url characters, never twice the same", () => {
  const ids = new Set(Array.from({ length: 1000 }, newApprovalId));
  assert.equal(ids.size, 1000);
  for (const id of ids) assert.match(id, /^apr_[A-Za-z0-9_-]{20}$/);
});

Deno.test("approvals: an approval is claimed once; a replay, even a concurrent one, is refused", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const id = newApprovalId();
    assert.equal(await claimApproval(kv, id, 60_000), true);
    assert.equal(await claimApproval(kv, id, 60_000), false);
    const other = newApprovalId();
    const results = await Promise.all(
      Array.from({ length: 8 }, () => claimApproval(kv, other, 60_000)),
    );
    assert.equal(results.filter(Boolean).length, 1);
    assert.notEqual((await kv.get(["approval_used", other])).versionstamp, null);
  } finally {
    kv.close();
  }
});
