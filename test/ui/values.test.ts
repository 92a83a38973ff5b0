/** The validation-curve form's value list (ui/src/values.ts): numbers, null and strings from comma-separated text. */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { parseValues } from "../../ui/src/values.js";

test("numbers, null and text come back as typed", () => {
  assert.deepEqual(parseValues("1, 2,3 , null"), [1, 2, 3, null]);
  assert.deepEqual(parseValues("gini, entropy"), ["gini", "entropy"]);
  assert.deepEqual(parseValues(" 0.5,-1e-3, ,"), [0.5, -0.001]);
  assert.deepEqual(parseValues(""), []);
});

test("a list of finite numbers, nulls and words round-trips through its text", () => {
  const item = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(null), fc.stringMatching(/^[a-z_]{1,8}$/).filter((w) => w !== "null"));
  fc.assert(
    fc.property(fc.array(item, { maxLength: 10 }), (values) => {
      // -0 prints as "0": compare through Object.is-insensitive equality.
      const parsed = parseValues(values.map((v) => String(v)).join(","));
      assert.deepEqual(parsed, values.map((v) => (Object.is(v, -0) ? 0 : v)));
    }),
  );
});
