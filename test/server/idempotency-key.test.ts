/** The Idempotency-Key header's syntax (plugins/idempotency-key.ts), as properties over generated values. */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { MAX_IDEMPOTENCY_KEY_LENGTH, parseIdempotencyKey } from "../../src/server/plugins/idempotency-key.js";

const printable = fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c));
/** Any key the draft allows: printable ASCII, space included, 1 to 255 characters. */
const anyKey = fc.string({ unit: printable, minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH });
/** A Structured Field string: quoted, with `"` and `\` escaped. */
const quote = (key: string) => `"${key.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

test("any printable key, sent quoted, parses back to itself", () => {
  fc.assert(fc.property(anyKey, (key) => assert.equal(parseIdempotencyKey(quote(key)), key)));
});

test("a bare token (visible ASCII, not starting with a quote) is its own key, the same as quoted", () => {
  const token = fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH }).filter((s) => !s.startsWith('"'));
  fc.assert(
    fc.property(token, (key) => {
      assert.equal(parseIdempotencyKey(key), key);
      assert.equal(parseIdempotencyKey(quote(key)), parseIdempotencyKey(key));
    }),
  );
});

test("longer than 255 characters, empty, or holding a character outside printable ASCII: invalid", () => {
  fc.assert(fc.property(fc.string({ unit: printable, minLength: MAX_IDEMPOTENCY_KEY_LENGTH + 1, maxLength: 400 }), (key) => assert.equal(parseIdempotencyKey(quote(key)), null)));
  const outside = fc.oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x7f, max: 0xffff })).map((c) => String.fromCharCode(c));
  fc.assert(
    fc.property(anyKey, outside, fc.nat(), (key, bad, at) => {
      const i = at % (key.length + 1);
      const withBad = key.slice(0, i) + bad + key.slice(i);
      // Surrounding whitespace is trimmed (as HTTP trims a field value); anything else outside printable ASCII is invalid.
      fc.pre(withBad.trim() === withBad);
      assert.equal(parseIdempotencyKey(quote(withBad)), null);
      assert.equal(parseIdempotencyKey(withBad), null);
    }),
  );
  for (const bad of ["", '""', '"', '"a\\b"', '"a"b"', "two words"]) assert.equal(parseIdempotencyKey(bad), null, JSON.stringify(bad));
});

test("a repeated header (an array) is invalid: two keys name no one request", () => {
  fc.assert(fc.property(fc.array(anyKey, { minLength: 2, maxLength: 3 }), (keys) => assert.equal(parseIdempotencyKey(keys), null)));
});
