import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { summarizeColumn } from "../../src/data/summary.js";
import { readCsv } from "../../src/data/read-csv.js";
import { column, fixture } from "./helpers.js";

const close = (a: number | null | undefined, b: number) => assert.ok(a != null && Math.abs(a - b) < 1e-12, `${a} ≈ ${b}`);

describe("summarizeColumn", () => {
  test("watermelon 3.0 numeric columns match pandas describe()", () => {
    const f = readCsv(fixture("watermelon-3.0.csv"));
    // pandas 1.5: df[["密度","含糖率"]].agg(["min","max","mean","std"])
    const density = summarizeColumn(column(f, "密度"));
    assert.equal(density.type, "numeric");
    assert.equal(density.missing_count, 0);
    assert.equal(density.levels, undefined);
    assert.equal(density.summary?.min, 0.243);
    assert.equal(density.summary?.max, 0.774);
    close(density.summary?.mean, 0.5326470588235293);
    close(density.summary?.std, 0.16690563994981963);
    const sugar = summarizeColumn(column(f, "含糖率"));
    close(sugar.summary?.mean, 0.2128235294117647);
    close(sugar.summary?.std, 0.11987870708247027);
  });

  test("categorical columns give levels and missing count, no statistics", () => {
    const f = readCsv(fixture("watermelon-2.0-alpha.csv"));
    assert.deepEqual(summarizeColumn(column(f, "色泽")), { name: "色泽", type: "categorical", missing_count: 3, levels: ["乌黑", "浅白", "青绿"] });
  });

  test("missing cells are skipped; undefined statistics are null", () => {
    const f = readCsv("a,b,c\n1,,5\n,,\n3,,\n");
    assert.deepEqual(summarizeColumn(column(f, "a")), { name: "a", type: "numeric", missing_count: 1, summary: { min: 1, max: 3, mean: 2, std: Math.SQRT2 } });
    assert.deepEqual(summarizeColumn(column(f, "b")).summary, { min: null, max: null, mean: null, std: null });
    assert.deepEqual(summarizeColumn(column(f, "c")).summary, { min: 5, max: 5, mean: 5, std: null });
  });

  test("stays finite and accurate at extreme magnitudes", () => {
    const big = summarizeColumn({ type: "numeric", name: "x", values: Float64Array.of(1.5e308, 1.5e308) });
    assert.equal(big.summary?.mean, 1.5e308);
    assert.equal(big.summary?.std, 0);
    const offset = summarizeColumn({ type: "numeric", name: "x", values: Float64Array.of(1e9 + 1, 1e9 + 2, 1e9 + 3) });
    assert.equal(offset.summary?.std, 1);
    assert.equal(JSON.stringify(big).includes("null"), false);
  });

  test('role_hint "identifier": a distinct value in ≥ 95 % of at least 20 present cells', () => {
    const movies = readCsv(fixture("movies.csv"));
    // 3,176 distinct titles among 3,200 present cells (vega-datasets 3.2.1).
    assert.equal(summarizeColumn(column(movies, "Title")).role_hint, "identifier");
    for (const name of ["Release Date", "Director", "Distributor", "MPAA Rating"]) assert.equal(summarizeColumn(column(movies, name)).role_hint, undefined, name);
    assert.equal(summarizeColumn(column(movies, "US DVD Sales")).role_hint, undefined, "numeric columns get no hint");

    const codes = (distinct: number, rows: number, missing = 0) =>
      readCsv(`id\n${[...Array.from({ length: rows }, (_, i) => `k${i % distinct}`), ...Array.from({ length: missing }, () => "")].join("\n")}\n`);
    assert.equal(summarizeColumn(column(codes(19, 20), "id")).role_hint, "identifier", "19 of 20: 0.95");
    assert.equal(summarizeColumn(column(codes(18, 20), "id")).role_hint, undefined, "18 of 20: 0.90");
    assert.equal(summarizeColumn(column(codes(20, 20, 30), "id")).role_hint, "identifier", "missing cells do not count");
    assert.equal(summarizeColumn(column(codes(19, 19), "id")).role_hint, undefined, "fewer than 20 present cells: no hint");
  });
});
