/**
 * Issue 10 item 4: how a writer quotes (R's write.csv and pandas QUOTE_ALL quote
 * every field; most writers only those that need it) and which row end it uses must
 * not change what is read.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { readCsv } from "../../src/data/read-csv.js";
import { frameRows } from "../../src/data/codec.js";
import { countLineBreaks } from "../../src/data/csv-cursor.js";

const cellChars = fc.constantFrom("a", "b", "Z", "1", "7", ".", "-", "e", " ", ",", '"', "\n", "\r", "\r\n", "西");
const cell = fc.oneof(
  fc.array(cellChars, { maxLength: 6 }).map((cs) => cs.join("")),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }).map(String),
  fc.integer({ min: -50, max: 50 }).map(String),
);

/** Width ≥ 2: a one-column row holding an empty cell is a blank line when unquoted, which readers skip. */
const table = fc.integer({ min: 2, max: 5 }).chain((width) =>
  fc.record({
    header: fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9]{0,5}$/), { minLength: width, maxLength: width }),
    rows: fc.array(fc.array(cell, { minLength: width, maxLength: width }), { minLength: 1, maxLength: 12 }),
  }),
);

type Table = { header: string[]; rows: string[][] };

function encode(t: Table, quoteAll: boolean, eol: string): string {
  const field = (s: string) => (quoteAll || /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);
  return [t.header, ...t.rows].map((r) => r.map(field).join(",")).join(eol) + eol;
}

describe("CSV encodings of one table", () => {
  test("quoted and unquoted, LF and CRLF, read identically", () => {
    fc.assert(
      fc.property(table, (t) => {
        const frames = [false, true].flatMap((quoteAll) => ["\n", "\r\n"].map((eol) => readCsv(encode(t, quoteAll, eol))));
        const expected = frames[0];
        assert.equal(expected.rowCount, t.rows.length);
        assert.deepEqual(
          expected.columns.map((c) => c.name),
          t.header,
        );
        for (const f of frames.slice(1)) {
          assert.deepEqual(frameRows(f, 0, f.rowCount), frameRows(expected, 0, expected.rowCount));
          assert.deepEqual(f.columns.map((c) => c.type), expected.columns.map((c) => c.type));
        }
      }),
      { numRuns: 300 },
    );
  });

  test("a quoted line break does not shift the line numbers of later errors", () => {
    for (const eol of ["\n", "\r\n"]) {
      const csv = ['"a","b"', '"x\ny","1"', '"z\r\nw","2"', '"only one field"'].join(eol) + eol;
      assert.throws(() => readCsv(csv), /line 6 has 1 field/);
    }
  });

  test("countLineBreaks counts CRLF once, also when the range ends between CR and LF", () => {
    const b = Buffer.from("a\r\nb\rc\nd" + "x".repeat(100) + "\r\n\r");
    assert.equal(countLineBreaks(b, 0, b.length), 5);
    assert.equal(countLineBreaks(b, 0, 2), 0);
    assert.equal(countLineBreaks(b, 0, 3), 1);
    assert.equal(countLineBreaks(b, 1, b.length - 2), 3);
    assert.equal(countLineBreaks(b, 4, b.length - 1), 3);
  });
});
