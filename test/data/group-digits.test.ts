import { test } from "node:test";
import assert from "node:assert/strict";
import { groupDigits } from "../../src/data/group-digits.js";

test("groupDigits writes integers as toLocaleString(\"en\") does", () => {
  for (const n of [0, 7, 999, 1000, 65_536, 123_456, 1_000_000, 12_345_678, -1234, -999, Number.MAX_SAFE_INTEGER, 1e21, 1.5]) {
    assert.equal(groupDigits(n), n.toLocaleString("en"), String(n));
  }
});
