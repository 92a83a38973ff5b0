import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { DEFER, parseDecimalBytes, scanPlainDecimal, scannedEnd } from "../../src/data/parse-decimal-bytes.js";
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

describe("scanPlainDecimal", () => {
  /** The cell `text` followed by `after`: its value, and where the scan says it ends. */
  const scan = (text: string, after = ",9") => {
    const b = Buffer.from(`#${text}${after}`);
    const x = scanPlainDecimal(b, 1, b.length);
    return { x, end: Number.isNaN(x) ? -1 : scannedEnd - 1 };
  };

  test("reads plain decimals up to a comma, a row end or the end of the input", () => {
    assert.deepEqual(scan("0.697"), { x: 0.697, end: 5 });
    assert.deepEqual(scan("-12.5", "\n"), { x: -12.5, end: 5 });
    assert.deepEqual(scan("42", "\r\n"), { x: 42, end: 2 });
    assert.deepEqual(scan("7.", ""), { x: 7, end: 2 });
    assert.deepEqual(scan(".25"), { x: 0.25, end: 3 });
    assert.ok(Object.is(scan("-0").x, -0));
  });

  test("NaN for what the general path must read", () => {
    const long = ["1234567890123456", "-0.12345678901234567", "0.00000000000000000000001", "9".repeat(400), "123456789012.3456"];
    for (const t of ["", "-", ".", " 1", "1 ", "+3", "1e5", "1.5E-3", '1"', "1.2.3", "abc", "0x1", ...long]) assert.ok(Number.isNaN(scan(t).x), t);
    assert.deepEqual(scan("-123456789012.345"), { x: -123456789012.345, end: 17 });
  });

  test("where it reads a number, the number is parseNumber's and the cell ends where the separator is", () => {
    const text = fc.string({ unit: fc.constantFrom("0", "1", "5", "9", ".", "e", "-", "+", " ", '"', "a") });
    const after = fc.constantFrom(",", "\n", "\r", "\r\n", ",1", "");
    fc.assert(
      fc.property(text, after, (t, a) => {
        const scanned = scan(t, a);
        const end = scanned.end;
        const x = scanned.x;
        if (Number.isNaN(x)) return;
        assert.ok(Object.is(x, parseNumber(t)), `${JSON.stringify(t)}: ${x} vs ${parseNumber(t)}`);
        assert.equal(end, t.length, JSON.stringify(t));
      }),
      { numRuns: 3000 },
    );
  });
});
