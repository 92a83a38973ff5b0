import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { parse } from "csv-parse/sync";
import { readCsv } from "../../src/data/read-csv.js";
import { DataTooLargeError } from "../../src/data/errors.js";
import { frameRows } from "../../src/data/codec.js";
import { countMissing } from "../../src/data/frame.js";
import { column, fixture, numeric, onlyDataErrors, texts, throwsDataError } from "./helpers.js";

describe("readCsv on the watermelon tables", () => {
  test("3.0: 编号 and two numeric attributes, six categorical ones and the label", () => {
    const f = readCsv(fixture("watermelon-3.0.csv"));
    assert.equal(f.rowCount, 17);
    assert.deepEqual(
      f.columns.map((c) => `${c.name}:${c.type}`),
      ["编号:numeric", "色泽:categorical", "根蒂:categorical", "敲声:categorical", "纹理:categorical", "脐部:categorical", "触感:categorical", "密度:numeric", "含糖率:numeric", "好瓜:categorical"],
    );
    const levels = (name: string) => {
      const c = column(f, name);
      return c.type === "categorical" ? c.levels : null;
    };
    assert.deepEqual(levels("色泽"), ["乌黑", "浅白", "青绿"]);
    assert.deepEqual(levels("纹理"), ["模糊", "清晰", "稍糊"]);
    assert.deepEqual(levels("好瓜"), ["否", "是"]);
    assert.deepEqual([...numeric(f, "密度").slice(0, 3)], [0.697, 0.774, 0.634]);
    assert.equal(numeric(f, "含糖率")[16], 0.103);
    assert.deepEqual(texts(f, "好瓜").slice(7, 10), ["是", "否", "否"]);
  });

  test("2.0-alpha: '-' is missing, with the right count per column", () => {
    const f = readCsv(fixture("watermelon-2.0-alpha.csv"));
    const counts = Object.fromEntries(f.columns.map((c) => [c.name, countMissing(c)]));
    assert.deepEqual(counts, { 编号: 0, 色泽: 3, 根蒂: 2, 敲声: 2, 纹理: 2, 脐部: 2, 触感: 2, 好瓜: 0 });
    assert.deepEqual(texts(f, "色泽").slice(0, 5), [null, "乌黑", "乌黑", "青绿", null]);
    const c = column(f, "色泽");
    assert.deepEqual(c.type === "categorical" && c.levels, ["乌黑", "浅白", "青绿"]);
  });

  test("2.0 reads the same from a string as from bytes", () => {
    const bytes = fixture("watermelon-2.0.csv");
    assert.deepEqual(readCsv(bytes.toString("utf8")), readCsv(bytes));
  });
});

describe("readCsv syntax", () => {
  test("quoted fields with commas, quotes and line breaks; CRLF; BOM", () => {
    const csv = '\uFEFF名字,"备 注"\r\n"a,b","say ""hi"""\r\n"line\r\nbreak",plain\r\n';
    const f = readCsv(csv);
    assert.deepEqual(f.columns.map((c) => c.name), ["名字", "备 注"]);
    assert.deepEqual(texts(f, "名字"), ["a,b", "line\r\nbreak"]);
    assert.deepEqual(texts(f, "备 注"), ['say "hi"', "plain"]);
  });

  test("blank lines are skipped, a missing final line break is fine, a lone CR ends a row", () => {
    const f = readCsv("x,y\n\n1,2\r\n\r\n3,4\r5,6");
    assert.deepEqual([...numeric(f, "x")], [1, 3, 5]);
    assert.deepEqual([...numeric(f, "y")], [2, 4, 6]);
  });

  test("line numbers count quoted line breaks", () => {
    throwsDataError(() => readCsv('a,b\n"x\ny",1\n2\n'), "line 4", "1 field", "header has 2");
  });

  test("numbers keep their value; a column turning categorical late keeps its texts", () => {
    const f = readCsv("n,m\n1.50,1.50\n 2 ,2\n-3e2,x\n");
    assert.deepEqual([...numeric(f, "n")], [1.5, 2, -300]);
    assert.deepEqual(texts(f, "m"), ["1.50", "2", "x"]);
  });

  test("columns turning categorical at different rows re-read earlier quoted cells", () => {
    const f = readCsv('a,b,c\n"1",2,"x,y"\n"3\n",4,z\n5,six,w\nseven,8,v\n');
    assert.deepEqual(texts(f, "a"), ["1", "3\n", "5", "seven"]);
    assert.deepEqual(texts(f, "b"), ["2", "4", "six", "8"]);
    assert.deepEqual(texts(f, "c"), ["x,y", "z", "w", "v"]);
  });

  test("default and replaced missing markers", () => {
    const csv = "a,b\n?,NA\n,n/a\nNaN,x\n1,-\n";
    const f = readCsv(csv);
    assert.deepEqual([...numeric(f, "a")], [NaN, NaN, NaN, 1]);
    assert.deepEqual(texts(f, "b"), [null, "n/a", "x", null]);
    const g = readCsv(csv, { missingValues: ["n/a", "?"] });
    assert.deepEqual(texts(g, "a"), [null, "", "NaN", "1"]);
    assert.deepEqual(texts(g, "b"), ["NA", null, "x", "-"]);
  });

  test("a number-like missing marker is honoured", () => {
    const f = readCsv("a\n1\n-999\n3\n", { missingValues: ["-999", ""] });
    assert.deepEqual([...numeric(f, "a")], [1, NaN, 3]);
  });

  test("column_types overrides inference", () => {
    const f = readCsv("code,score\n01,1\n02,2\n", { columnTypes: { code: "categorical" } });
    assert.deepEqual(texts(f, "code"), ["01", "02"]);
    throwsDataError(() => readCsv("a,b\n1,2\nx,3\n", { columnTypes: { a: "numeric" } }), "column_types.a", '"x"', "line 3");
    throwsDataError(() => readCsv("a,b\n1,2\n", { columnTypes: { c: "numeric" } }), "column_types.c");
  });
});

describe("readCsv refuses", () => {
  test("empty input and a header without rows", () => {
    throwsDataError(() => readCsv(""), "body", "empty");
    throwsDataError(() => readCsv("\uFEFF\r\n\n"), "body", "empty");
    throwsDataError(() => readCsv("a,b\n"), "body", "no data rows");
  });

  test("ragged rows, saying which line", () => {
    throwsDataError(() => readCsv("a,b,c\n1,2,3\n4,5\n"), "line 3", "2 fields", "header has 3");
    throwsDataError(() => readCsv("a,b\n1,2\n3,4,5,6\n"), "line 3", "4 fields");
  });

  test("duplicate, empty and reserved header names", () => {
    throwsDataError(() => readCsv("a,b,a\n1,2,3\n"), "header", '"a" twice', "columns 1 and 3");
    throwsDataError(() => readCsv("a,,c\n1,2,3\n"), "header", "column 2");
    throwsDataError(() => readCsv("a, \n1,2\n"), "header", "column 2");
    throwsDataError(() => readCsv("__proto__\n1\n"), "header.__proto__", "__proto__");
  });

  test("broken quoting", () => {
    throwsDataError(() => readCsv('a,b\n"open,1\n'), "line 2", "never closed");
    throwsDataError(() => readCsv('a,b\n"x"y,1\n'), "line 2", "closing quote");
  });

  test("more cells than allowed, as DataTooLargeError", () => {
    const e = throwsDataError(() => readCsv("a,b\n1,2\n3,4\n5,6\n", { maxCells: 5 }), "body", "5 cells");
    assert.ok(e instanceof DataTooLargeError);
    assert.equal(readCsv("a,b\n1,2\n3,4\n", { maxCells: 4 }).rowCount, 2);
  });
});

// --- properties ---

const cellText = fc.string({ unit: fc.constantFrom("a", "é", "瓜", ",", '"', "\n", "\r", " ", "1", ".", "-", "e") });
const headerName = fc
  .string({ unit: fc.constantFrom("a", "b", "密", "度", " ", ",", '"', "\n"), minLength: 1, maxLength: 6 })
  .filter((s) => s.trim() !== "" && !["__proto__", "constructor", "prototype"].includes(s));
const table = fc
  .uniqueArray(headerName, { minLength: 1, maxLength: 5 })
  .chain((names) => fc.tuple(fc.constant(names), fc.array(fc.array(cellText, { minLength: names.length, maxLength: names.length }), { minLength: 1, maxLength: 8 })));

const quote = (s: string) => `"${s.replaceAll('"', '""')}"`;

describe("readCsv properties", () => {
  test("arbitrary cells written quoted read back unchanged", () => {
    fc.assert(
      fc.property(table, fc.constantFrom("\n", "\r\n"), fc.boolean(), ([names, rows], eol, bom) => {
        const csv = (bom ? "\uFEFF" : "") + [names, ...rows].map((r) => r.map(quote).join(",")).join(eol) + eol;
        const types = Object.fromEntries(names.map((n) => [n, "categorical" as const]));
        const f = readCsv(csv, { missingValues: [], columnTypes: types });
        assert.deepEqual(f.columns.map((c) => c.name), names);
        const back = frameRows(f, 0, f.rowCount).map((r) => names.map((n) => r[n]));
        assert.deepEqual(back, rows);
      }),
      { numRuns: 300 },
    );
  });

  test("agrees with csv-parse on RFC 4180 input with mixed quoting", () => {
    const field = fc.oneof(
      fc.string({ unit: fc.constantFrom("x", "7", " ", ".", "瓜") }),
      cellText.map(quote),
    );
    const body = fc.integer({ min: 1, max: 4 }).chain((width) =>
      fc.array(fc.array(field, { minLength: width, maxLength: width }), { minLength: 2, maxLength: 8 }),
    );
    fc.assert(
      fc.property(body, fc.constantFrom("\n", "\r\n"), (lines, eol) => {
        // Make the header valid and keep every line non-blank (both readers would treat blank lines differently).
        const header = lines[0].map((_, j) => `c${j}`);
        const rows = lines.slice(1).map((r) => (r[0] === "" ? ['""', ...r.slice(1)] : r));
        const csv = [header, ...rows].map((r) => r.join(",")).join(eol);
        const expected = parse(csv, { bom: true }) as string[][];
        const f = readCsv(csv, { missingValues: [], columnTypes: Object.fromEntries(header.map((h) => [h, "categorical" as const])) });
        const got = [header, ...frameRows(f, 0, f.rowCount).map((r) => header.map((h) => r[h]))];
        assert.deepEqual(got, expected);
      }),
      { numRuns: 300 },
    );
  });

  test("numbers parsed from the bytes equal Number() of their text", () => {
    const number = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
      fc.double({ min: -1e6, max: 1e6, noNaN: true }).chain((x) => fc.integer({ min: 0, max: 12 }).map((d) => x.toFixed(d))),
      fc.double({ noNaN: true, noDefaultInfinity: true }).chain((x) => fc.integer({ min: 0, max: 16 }).map((d) => x.toExponential(d))),
      fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }).map(String),
    ).filter((text) => Number.isFinite(Number(text))); // toExponential rounding can overflow 1.79e308
    fc.assert(
      fc.property(fc.array(number, { minLength: 1, maxLength: 20 }), (values) => {
        const f = readCsv(`x\n${values.join("\n")}\n`);
        const got = numeric(f, "x");
        values.forEach((v, i) => assert.ok(Object.is(got[i], Number(v)), `${v} → ${got[i]}`));
      }),
      { numRuns: 300 },
    );
  });

  test("random bodies and options never throw anything but DataError", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "1", ",", '"', "\n", "\r", " ", "-", "?", "__proto__", "\uFEFF", "瓜") });
    const options = fc.record(
      {
        missingValues: fc.array(fc.constantFrom("", "-", "1", "a", " ")),
        columnTypes: fc.dictionary(fc.constantFrom("a", "1", "b"), fc.constantFrom("numeric" as const, "categorical" as const)),
        maxCells: fc.integer({ min: 1, max: 30 }),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(text, fc.uint8Array().map((b) => Buffer.from(b))), options, (body, opts) => {
        onlyDataErrors(() => readCsv(body, opts));
      }),
      { numRuns: 500 },
    );
  });
});
