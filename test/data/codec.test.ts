import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { decodeColumn, encodeColumn, frameRows } from "../../src/data/codec.js";
import { readCsv } from "../../src/data/read-csv.js";
import { readJsonRows } from "../../src/data/read-json.js";
import { makeFrame, selectColumns, sortLevels, type Column, type Frame } from "../../src/data/frame.js";
import { fixture } from "./helpers.js";

describe("encodeColumn / decodeColumn", () => {
  test("every column of watermelon 2.0-alpha and 3.0 round-trips", () => {
    for (const name of ["watermelon-2.0-alpha.csv", "watermelon-3.0.csv"]) {
      const f = readCsv(fixture(name));
      for (const c of f.columns) {
        const e = encodeColumn(c);
        assert.equal(e.bytes.byteLength, f.rowCount * (c.type === "numeric" ? 8 : 4));
        assert.deepEqual(decodeColumn(c.name, e.type, e.bytes, e.levels), c);
      }
    }
  });

  test("NaN and -0 survive; a blob at an odd offset is copied into an aligned array", () => {
    const values = Float64Array.of(NaN, -0, 1e-300, -2.5);
    const e = encodeColumn({ type: "numeric", name: "x", values });
    const shifted = Buffer.concat([Buffer.from([7]), e.bytes]).subarray(1);
    const back = decodeColumn("x", "numeric", shifted);
    assert.ok(back.type === "numeric" && back.values.byteOffset === 0);
    assert.ok(back.type === "numeric" && Object.is(back.values[1], -0) && Number.isNaN(back.values[0]));
    assert.deepEqual(back.type === "numeric" && [...back.values.slice(2)], [1e-300, -2.5]);
  });

  test("refuses bytes that cannot be such a column", () => {
    assert.throws(() => decodeColumn("x", "numeric", Buffer.alloc(7)), /float64/);
    assert.throws(() => decodeColumn("x", "categorical", Buffer.alloc(6), ["a"]), /int32/);
    assert.throws(() => decodeColumn("x", "categorical", Buffer.from(Int32Array.of(0, 2).buffer), ["a", "b"]), /code 2/);
    assert.throws(() => decodeColumn("x", "categorical", Buffer.alloc(4)), /levels/);
  });
});

describe("frameRows", () => {
  const f = readCsv("a,b\n1,x\n,y\n3,-\n");

  test("rows as objects, missing as null", () => {
    assert.deepEqual(frameRows(f, 0, 10), [
      { a: 1, b: "x" },
      { a: null, b: "y" },
      { a: 3, b: null },
    ]);
  });

  test("offset and limit are clipped to the table", () => {
    assert.deepEqual(frameRows(f, 1, 1), [{ a: null, b: "y" }]);
    assert.deepEqual(frameRows(f, 3, 5), []);
    assert.deepEqual(frameRows(f, 2, 0), []);
    assert.equal(frameRows(f, -4, 2).length, 2);
  });

  test("a column named __proto__ becomes an own key, not the prototype", () => {
    const rows = frameRows(makeFrame([{ type: "numeric", name: "__proto__", values: Float64Array.of(1) }]), 0, 1);
    assert.equal(Object.getPrototypeOf(rows[0]), Object.prototype);
    assert.deepEqual(Object.keys(rows[0]), ["__proto__"]);
  });
});

// A frame as readers make it: every level observed, levels in sortLevels order.
const frameArb: fc.Arbitrary<Frame> = fc.integer({ min: 1, max: 12 }).chain((n) =>
  fc
    .uniqueArray(fc.string({ minLength: 1, maxLength: 5 }).filter((s) => s.trim() !== "" && !["__proto__", "constructor", "prototype"].includes(s)), {
      minLength: 1,
      maxLength: 5,
    })
    .chain((names) =>
      fc.tuple(
        ...names.map((name): fc.Arbitrary<Column> =>
          fc.oneof(
            fc
              .array(fc.oneof(fc.double({ noDefaultInfinity: true }).filter((x) => !Object.is(x, -0)), fc.constant(NaN)), { minLength: n, maxLength: n })
              .map((xs): Column => ({ type: "numeric", name, values: Float64Array.from(xs) })),
            fc.array(fc.option(fc.string({ maxLength: 4 })), { minLength: n, maxLength: n }).map((cells): Column => {
              const levels = sortLevels(cells.filter((c): c is string => c !== null));
              return { type: "categorical", name, levels, codes: Int32Array.from(cells, (c) => (c === null ? -1 : levels.indexOf(c))) };
            }),
          ),
        ),
      ),
    )
    .map((columns) => makeFrame(columns)),
);

describe("frameRows properties", () => {
  test("frame → frameRows → JSON → readJsonRows gives the same frame", () => {
    fc.assert(
      fc.property(frameArb, (frame) => {
        const rows = JSON.parse(JSON.stringify(frameRows(frame, 0, frame.rowCount)));
        const columnTypes = Object.fromEntries(frame.columns.map((c) => [c.name, c.type]));
        // Objects list integer-like keys ("0", "12") first, whatever the insertion order.
        const expected = selectColumns(frame, Object.keys(rows[0]));
        assert.deepEqual(readJsonRows(rows, { columnTypes, missingValues: [] }), expected);
      }),
      { numRuns: 300 },
    );
  });
});
