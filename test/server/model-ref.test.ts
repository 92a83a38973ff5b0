/** The model reference parser: any string is a reference or a clean rejection, never a throw; well-formed references parse back to their parts. */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { ALIAS_PATTERN, MODEL_NAME_PATTERN, parseModelRef, parseVersion } from "../../src/server/model-ref.js";

const nameChar = fc.constantFrom(..."abcXYZ019_.-");
const modelName = fc
  .tuple(fc.constantFrom(..."aZ7"), fc.array(nameChar, { maxLength: 63 }))
  .map(([head, tail]) => head + tail.join(""))
  .filter((n) => MODEL_NAME_PATTERN.test(n));
const alias = fc.tuple(fc.constantFrom(..."aQ"), fc.array(nameChar, { maxLength: 31 })).map(([head, tail]) => head + tail.join(""));
const version = fc.integer({ min: 1, max: 2 ** 31 - 1 });

test("any string parses to a reference or undefined, never throws", () => {
  fc.assert(
    fc.property(fc.oneof(fc.string({ maxLength: 300 }), fc.string({ unit: "binary", maxLength: 300 }), fc.string({ unit: fc.constantFrom("@", ":", "a", "1", "0", "/", "md_", "%40", " "), maxLength: 60 })), (s) => {
      const ref = parseModelRef(s);
      if (ref === undefined) return;
      assert.ok(["id", "latest", "version", "alias"].includes(ref.kind));
      if (ref.kind === "alias") assert.ok(ALIAS_PATTERN.test(ref.alias) && !ref.name.includes("@"));
      if (ref.kind === "version") assert.ok(Number.isInteger(ref.version) && ref.version >= 1 && !ref.name.includes(":"));
      if (ref.kind === "latest") assert.ok(!/[@:/]/.test(ref.name));
    }),
    { numRuns: 2000 },
  );
});

test("name, name:version and name@alias parse back to their parts", () => {
  fc.assert(
    fc.property(modelName, version, alias, (name, v, a) => {
      assert.deepEqual(parseModelRef(name), { kind: "latest", name });
      assert.deepEqual(parseModelRef(`${name}:${v}`), { kind: "version", name, version: v });
      assert.deepEqual(parseModelRef(`${name}@${a}`), { kind: "alias", name, alias: a });
    }),
  );
});

test("ids win, and the edges of versions and aliases are refused", () => {
  assert.deepEqual(parseModelRef("md_0123456789abcdef"), { kind: "id", id: "md_0123456789abcdef" });
  assert.equal(MODEL_NAME_PATTERN.test("md_0123456789abcdef"), false, "no name is shaped like an id");
  for (const bad of ["", "a:0", "a:01", "a:-1", "a:1.5", "a:2147483648", "a@1x", "a@", "@a", ":1", "a:1:2", "a@b@c", "a/b", "a@b:1"]) assert.equal(parseModelRef(bad), undefined, bad);
  assert.equal(parseVersion("2147483647"), 2 ** 31 - 1);
  assert.equal(parseVersion("99999999999"), undefined);
});
