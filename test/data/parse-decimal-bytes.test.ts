import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { DEFER, parseDecimalBytes } from "../../src/data/parse-decimal-bytes.js";
import { parseNumber } from "../../src/data/infer.js";

const parse = (text: string) => {
  const b = Buffer.from(`#${text}#`);
  return parseDecimalBytes(b, 1, b.length - 1);
};

describe("parseDecimalBytes", () => {
  test("reads the common forms, trimming spaces and tabs", () => {
    assert.equal(parse("0.697"), 0.697);
    assert.equal(parse("\t-12.5 "), -12.5);
    assert.equal(parse("+3"), 3);
    assert.equal(parse(".25"), 0.25);
    assert.equal(parse("7."), 7);
    assert.equal(parse("1.5e-3"), 0.0015);
    assert.equal(parse("2E+2"), 200);
    assert.ok(Object.is(parse("-0"), -0));
  });

  test("NaN for non-numbers", () => {
    for (const t of ["", " ", ".", "-", "e5", "1e", "1e+", "1.2.3", "1,5", "0x1", "abc", "1 2", "Infinity"]) assert.ok(Number.isNaN(parse(t)), t);
  });

  test("DEFER for numbers beyond the exact fast path", () => {
    // 2^53 or more in the digits, or an exponent beyond ±22.
    for (const t of ["9007199254740993", "0.12345678901234567", "1e23", "1e400", "-5e-30"]) assert.equal(parse(t), DEFER, t);
  });

  test("agrees with parseNumber (through Number() where it defers)", () => {
    const text = fc.string({ unit: fc.constantFrom("0", "1", "5", "9", ".", "e", "E", "-", "+", " ") });
    fc.assert(
      fc.property(text, (t) => {
        let x = parse(t);
        if (x === DEFER) x = Number(t);
        if (!Number.isFinite(x)) x = NaN;
        assert.ok(Object.is(x, parseNumber(t)), `${JSON.stringify(t)}: ${x} vs ${parseNumber(t)}`);
      }),
      { numRuns: 3000 },
    );
  });
});
