/**
 * The interoperability converters take any JSON (or any bytes) a client sends: each
 * either converts it or refuses it with a client error (ApiError, 4xx), never another
 * throw. And CSV written by csvLine reads back as the same cells.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import type { ColumnSchema } from "../../src/data/frame.js";
import { ApiError } from "../../src/server/errors.js";
import { csvLine, readCsvTable, wantsCsv } from "../../src/server/interop/csv.js";
import { computeMetrics, metricsBody } from "../../src/server/interop/metrics.js";
import { MLFLOW_FORMATS, mlflowRows } from "../../src/server/interop/mlflow.js";
import { OIP_DATATYPES, oipInferRequest } from "../../src/server/interop/oip.js";

const FEATURES = ["a", "b", "c"];
const SCHEMA: ColumnSchema[] = [
  { name: "a", type: "numeric" },
  { name: "b", type: "categorical", levels: ["x", "y"] },
  { name: "c", type: "numeric" },
];
const MAX_ROWS = 50;

/** Runs `convert`; a thrown value must be a client ApiError. */
function convertsOrRefuses<T>(convert: () => T): T | undefined {
  try {
    return convert();
  } catch (e) {
    assert.ok(e instanceof ApiError, `threw ${(e as Error)?.stack ?? String(e)}`);
    assert.ok(e.status >= 400 && e.status < 500, `status ${e.status}`);
    return undefined;
  }
}

const cell = fc.oneof(fc.string({ maxLength: 4 }), fc.double(), fc.integer(), fc.boolean(), fc.constant(null));
const name = fc.oneof(fc.constantFrom(...FEATURES), fc.string({ maxLength: 3 }));
const isCell = (v: unknown) => v === null || ["string", "number", "boolean"].includes(typeof v);

describe("mlflowRows", () => {
  const payload = fc.oneof(
    fc.jsonValue(),
    fc.record({ dataframe_split: fc.record({ columns: fc.array(name, { maxLength: 4 }), data: fc.array(fc.array(cell, { maxLength: 4 }), { maxLength: 4 }), index: fc.option(fc.array(fc.integer(), { maxLength: 4 }), { nil: undefined }) }, { requiredKeys: [] }) }),
    fc.record({ dataframe_records: fc.array(fc.dictionary(name, cell, { maxKeys: 4 }), { maxLength: 4 }) }),
    fc.record({ instances: fc.array(fc.oneof(fc.array(cell, { maxLength: 4 }), fc.dictionary(name, cell), cell), { maxLength: 4 }) }),
    fc.record({ inputs: fc.oneof(fc.dictionary(name, fc.array(cell, { maxLength: 4 }), { maxKeys: 4 }), fc.array(fc.array(cell, { maxLength: 4 }), { maxLength: 4 })) }),
    fc.dictionary(fc.constantFrom(...MLFLOW_FORMATS, "params", "extra"), fc.jsonValue(), { maxKeys: 3 }),
  );

  test("any payload converts to rows of cells or is refused with a 4xx", () => {
    fc.assert(
      fc.property(payload, (body) => {
        const rows = convertsOrRefuses(() => mlflowRows(body, FEATURES, MAX_ROWS));
        if (rows === undefined) return;
        assert.ok(rows.length >= 1 && rows.length <= MAX_ROWS);
        for (const row of rows) for (const v of Object.values(row)) assert.ok(isCell(v) && (typeof v !== "number" || Number.isFinite(v)));
      }),
      { numRuns: 500 },
    );
  });
});

describe("oipInferRequest", () => {
  const shape = fc.array(fc.integer({ min: -1, max: 5 }), { maxLength: 3 });
  const data = fc.oneof(fc.array(cell, { maxLength: 12 }), fc.array(fc.array(cell, { maxLength: 4 }), { maxLength: 4 }), fc.jsonValue());
  const input = fc.record({ name: fc.oneof(name, fc.constant("input-0")), shape, datatype: fc.oneof(fc.constantFrom(...OIP_DATATYPES), fc.string({ maxLength: 5 })), data }, { requiredKeys: ["name", "shape", "datatype"] });
  const body = fc.oneof(
    fc.jsonValue(),
    fc.record({ id: fc.oneof(fc.string(), fc.integer()), inputs: fc.array(input, { maxLength: 4 }), outputs: fc.array(fc.record({ name: fc.string({ maxLength: 12 }) }), { maxLength: 3 }) }, { requiredKeys: ["inputs"] }),
  );

  test("any request converts to rows of the model's features or is refused with a 4xx", () => {
    fc.assert(
      fc.property(body, (b) => {
        const request = convertsOrRefuses(() => oipInferRequest(b, SCHEMA, MAX_ROWS));
        if (request === undefined) return;
        assert.ok(request.rows.length >= 1 && request.rows.length <= MAX_ROWS);
        for (const row of request.rows) {
          for (const [k, v] of Object.entries(row)) {
            assert.ok(FEATURES.includes(k), k);
            assert.ok(isCell(v));
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  test("a matrix as flat or nested data gives the same rows", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom("x", "y"), fc.integer()), { minLength: 1, maxLength: 10 }), (matrix) => {
        const nested = matrix.map((r) => [...r]);
        const make = (d: unknown) => oipInferRequest({ inputs: [{ name: "m", shape: [matrix.length, 3], datatype: "BYTES", data: d }] }, SCHEMA, MAX_ROWS);
        // BYTES must be strings: numbers there are refused, so use the FP64 route for the numeric part.
        assert.throws(() => make(nested), ApiError);
        const numeric = matrix.map((r) => [r[0], r[2], r[2]]);
        const fp = (d: unknown) => oipInferRequest({ inputs: [{ name: "m", shape: [matrix.length, 3], datatype: "FP64", data: d }] }, SCHEMA, MAX_ROWS).rows;
        assert.deepEqual(fp(numeric), fp(numeric.flat()));
        assert.deepEqual(fp(numeric)[0], { a: numeric[0][0], b: numeric[0][1], c: numeric[0][2] });
      }),
    );
  });
});

describe("CSV", () => {
  const header = fc
    .uniqueArray(fc.string({ minLength: 1, maxLength: 6 }).filter((s) => s.trim() !== "" && !["__proto__", "constructor", "prototype"].includes(s) && !s.startsWith("\uFEFF")), { minLength: 1, maxLength: 4 })
    .chain((columns) => fc.record({ columns: fc.constant(columns), cells: fc.array(fc.array(fc.string({ maxLength: 6 }), { minLength: columns.length, maxLength: columns.length }), { minLength: 1, maxLength: 6 }) }));

  test("csvLine output reads back as the same cells (quotes, commas, line breaks included)", () => {
    fc.assert(
      fc.property(header, ({ columns, cells }) => {
        const text = csvLine(columns) + cells.map((row) => csvLine(row)).join("");
        assert.deepEqual(readCsvTable(Buffer.from(text), 100), { columns, cells });
      }),
      { numRuns: 500 },
    );
  });

  test("any bytes read as a table or are refused with a 4xx", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^[a,"\r\n ]{0,30}$/)), (text) => {
        const table = convertsOrRefuses(() => readCsvTable(Buffer.from(text), 5));
        if (table) for (const row of table.cells) assert.equal(row.length, table.columns.length);
      }),
      { numRuns: 500 },
    );
  });

  test("wantsCsv takes any header", () => {
    fc.assert(fc.property(fc.string(), (accept) => assert.equal(typeof wantsCsv(accept), "boolean")));
    assert.equal(wantsCsv("text/csv"), true);
    assert.equal(wantsCsv("application/json, text/csv"), false);
    assert.equal(wantsCsv("application/json;q=0.5, text/csv"), true);
    assert.equal(wantsCsv("text/csv;q=0"), false);
    assert.equal(wantsCsv(undefined), false);
  });
});

describe("computeMetrics", () => {
  const label = fc.oneof(fc.constantFrom("a", "b", "c"), fc.integer({ min: 0, max: 2 }), fc.double(), fc.boolean());
  const vector = fc.array(label, { minLength: 1, maxLength: 6 });
  const matrix = fc.array(fc.array(fc.oneof(fc.constantFrom(0, 1), fc.double()), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 });
  const body = fc.record(
    {
      task: fc.constantFrom("classification", "regression", "multilabel"),
      y_true: fc.oneof(vector, matrix),
      y_pred: fc.oneof(vector, matrix),
      y_score: fc.oneof(fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), { minLength: 1, maxLength: 6 }), matrix),
      labels: fc.array(label, { minLength: 2, maxLength: 4 }),
      positive_class: label,
      beta: fc.double({ min: 0.01, max: 10, noNaN: true }),
      confusion_matrix: fc.record({ labels: fc.array(label, { minLength: 2, maxLength: 3 }), matrix: fc.array(fc.array(fc.nat(5), { maxLength: 3 }), { minLength: 2, maxLength: 3 }) }),
    },
    { requiredKeys: [] },
  );

  test("a body the schema accepts gives metrics or a 4xx, never another throw", () => {
    fc.assert(
      fc.property(body, (b) => {
        const parsed = metricsBody.safeParse(b);
        if (!parsed.success) return;
        const result = convertsOrRefuses(() => computeMetrics(parsed.data));
        if (result) for (const v of Object.values(result.metrics)) assert.ok(v === null || Number.isFinite(v));
      }),
      { numRuns: 1000 },
    );
  });
});
