import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { createRng, type Rng } from "../../src/data/random.js";
import {
  FULL_SHUFFLE_LIMIT,
  MAX_SEARCH_PARAMS,
  MAX_VALUE_DEPTH,
  gridCandidates,
  gridSize,
  nestsDeeperThan,
  randomCandidates,
  searchSpaceIssues,
  type ParamDistributions,
  type ParamGrid,
} from "../../src/evaluation/search-space.js";

/** The materialising implementation this module replaced: the reference for order and for seeded draws. */
function bruteForceGrid(grid: ParamGrid): Record<string, unknown>[] {
  let out: Record<string, unknown>[] = [{}];
  for (const key of Object.keys(grid)) out = out.flatMap((partial) => grid[key].map((v) => ({ ...partial, [key]: v })));
  return out;
}

function referenceRandom(space: ParamDistributions, nIter: number, rng: Rng): Record<string, unknown>[] {
  const keys = Object.keys(space);
  if (keys.every((k) => Array.isArray(space[k]))) {
    const all = bruteForceGrid(space as ParamGrid);
    const order = all.map((_, i) => i);
    for (let i = order.length - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      [order[i], order[j]] = [order[j], order[i]];
    }
    return order.slice(0, Math.min(nIter, all.length)).map((i) => all[i]);
  }
  return Array.from({ length: nIter }, () =>
    Object.fromEntries(
      keys.map((k) => {
        const d = space[k];
        if (Array.isArray(d)) return [k, d[rng.int(d.length)]];
        if (d.distribution === "uniform") return [k, d.low + rng.next() * (d.high - d.low)];
        if (d.distribution === "loguniform") return [k, Math.exp(Math.log(d.low) + rng.next() * (Math.log(d.high) - Math.log(d.low)))];
        return [k, d.low + rng.int(d.high - d.low)];
      }),
    ),
  );
}

const key = fc.constantFrom("a", "b", "c", "d", "max_depth", "alpha");
const scalarValue = fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constantFrom("x", "y", "z"), fc.boolean(), fc.constant(null));
const list = fc.uniqueArray(scalarValue, { minLength: 1, maxLength: 5 });
const grid = fc.dictionary(key, list, { minKeys: 1, maxKeys: 4 });
const range = fc.tuple(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.double({ min: -1e6, max: 1e6, noNaN: true })).filter(([a, b]) => a < b);
const distribution = fc.oneof(
  list,
  range.map(([low, high]) => ({ distribution: "uniform" as const, low, high })),
  fc.tuple(fc.double({ min: 1e-9, max: 1e3, noNaN: true }), fc.double({ min: 1e-9, max: 1e3, noNaN: true })).filter(([a, b]) => a < b).map(([low, high]) => ({ distribution: "loguniform" as const, low, high })),
  fc.tuple(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 1, max: 50 })).map(([low, span]) => ({ distribution: "randint" as const, low, high: low + span })),
);
const space = fc.dictionary(key, distribution, { minKeys: 1, maxKeys: 4 });

function inside(value: unknown, d: ParamDistributions[string]): boolean {
  if (Array.isArray(d)) return d.includes(value as never);
  if (typeof value !== "number") return false;
  switch (d.distribution) {
    case "uniform":
      return value >= d.low && value <= d.high;
    case "loguniform":
      return value >= d.low * (1 - 1e-12) && value <= d.high * (1 + 1e-12);
    case "randint":
      return Number.isInteger(value) && value >= d.low && value < d.high;
  }
}

describe("counting and grid order", () => {
  test("gridSize equals the size of a brute-force enumeration; candidates come in its order", () => {
    fc.assert(
      fc.property(grid, (g) => {
        const all = bruteForceGrid(g);
        assert.equal(gridSize(g), BigInt(all.length));
        assert.deepEqual(gridCandidates(g, all.length), all);
      }),
    );
  });

  test("sizes past a double's integers are exact, and a grid past max throws before allocating", () => {
    const big = Object.fromEntries(Array.from({ length: MAX_SEARCH_PARAMS }, (_, i) => [`p${i}`, Array.from({ length: 1000 }, (_, v) => v)]));
    assert.equal(gridSize(big), 1000n ** BigInt(MAX_SEARCH_PARAMS));
    assert.throws(() => gridCandidates(big, 1000), RangeError);
  });
});

describe("random draws", () => {
  test("every candidate lies inside its space and has exactly its parameters", () => {
    fc.assert(
      fc.property(space, fc.integer({ min: 1, max: 40 }), fc.nat(), (s, nIter, seed) => {
        for (const c of randomCandidates(s, nIter, createRng(seed))) {
          assert.deepEqual(Object.keys(c), Object.keys(s));
          for (const k of Object.keys(s)) assert.ok(inside(c[k], s[k]), `${k}: ${String(c[k])} outside ${JSON.stringify(s[k])}`);
        }
      }),
    );
  });

  test("deterministic per seed, and equal to the materialising implementation on spaces up to FULL_SHUFFLE_LIMIT", () => {
    fc.assert(
      fc.property(space, fc.integer({ min: 1, max: 40 }), fc.nat(), (s, nIter, seed) => {
        const drawn = randomCandidates(s, nIter, createRng(seed));
        assert.deepEqual(randomCandidates(s, nIter, createRng(seed)), drawn);
        assert.deepEqual(drawn, referenceRandom(s, nIter, createRng(seed)));
      }),
    );
  });

  test("lists alone: min(n_iter, size) distinct candidates, each a grid candidate", () => {
    fc.assert(
      fc.property(grid, fc.integer({ min: 1, max: 200 }), fc.nat(), (g, nIter, seed) => {
        const all = new Set(bruteForceGrid(g).map((c) => JSON.stringify(c)));
        const drawn = randomCandidates(g, nIter, createRng(seed)).map((c) => JSON.stringify(c));
        assert.equal(drawn.length, Math.min(nIter, all.size));
        assert.equal(new Set(drawn).size, drawn.length);
        assert.ok(drawn.every((c) => all.has(c)));
      }),
    );
  });

  test("lists spanning 10^9 combinations: n_iter distinct candidates drawn per parameter, seeded", () => {
    const values = Array.from({ length: 1000 }, (_, i) => i);
    const huge = { a: values, b: values.map((v) => v + 0.5), c: values.map(String) };
    assert.ok(gridSize(huge) > BigInt(FULL_SHUFFLE_LIMIT));
    const drawn = randomCandidates(huge, 1000, createRng(3));
    assert.equal(drawn.length, 1000);
    assert.equal(new Set(drawn.map((c) => JSON.stringify(c))).size, 1000);
    assert.ok(drawn.every((c) => values.includes(c.a as number) && huge.b.includes(c.b as number) && huge.c.includes(c.c as string)));
    assert.deepEqual(randomCandidates(huge, 1000, createRng(3)), drawn);
    assert.notDeepEqual(randomCandidates(huge, 1000, createRng(4)), drawn);
  });
});

describe("space issues", () => {
  const depth = (v: unknown): number => (typeof v === "object" && v !== null ? 1 + Math.max(0, ...Object.values(v).map(depth)) : 0);

  test("nestsDeeperThan agrees with a recursive depth on any JSON value", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.integer({ min: 0, max: 7 }), (v, max) => {
        assert.equal(nestsDeeperThan(v, max), depth(v) > max);
      }),
    );
  });

  test("a 100,000-level value is too deep, found without recursion", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = i % 2 ? [deep] : { x: deep };
    assert.equal(nestsDeeperThan(deep, MAX_VALUE_DEPTH), true);
    assert.deepEqual(searchSpaceIssues({ max_depth: [1, deep] }), [{ path: "max_depth[1]", message: `nested more than ${MAX_VALUE_DEPTH} levels deep` }]);
    assert.deepEqual(searchSpaceIssues({ hidden_layer_sizes: [[[64, 32]], [[8]]] }), []);
  });

  test("empty or inverted ranges, overflowing spans, too many parameters", () => {
    const issue = (d: ParamDistributions[string]) => searchSpaceIssues({ x: d }).map((i) => i.path);
    assert.deepEqual(issue({ distribution: "randint", low: 5, high: 5 }), ["x.high"]);
    assert.deepEqual(issue({ distribution: "randint", low: 5, high: 2 }), ["x.high"]);
    assert.deepEqual(issue({ distribution: "randint", low: 0, high: 2 ** 40 }), ["x.high"]);
    assert.deepEqual(issue({ distribution: "uniform", low: 1, high: 1 }), ["x.high"]);
    assert.deepEqual(issue({ distribution: "uniform", low: -1e308, high: 1e308 }), ["x.high"]);
    assert.deepEqual(issue({ distribution: "loguniform", low: 2, high: 1 }), ["x.high"]);
    assert.deepEqual(issue({ distribution: "randint", low: 5, high: 6 }), []);
    const many = Object.fromEntries(Array.from({ length: MAX_SEARCH_PARAMS + 1 }, (_, i) => [`p${i}`, [1]]));
    assert.equal(searchSpaceIssues(many).length, 1);
  });

  test("randint draws stay below high, even at the widest span allowed", () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 31 }), fc.nat(), (low, seed) => {
        const d = { distribution: "randint" as const, low, high: low + 2 ** 32 };
        for (const c of randomCandidates({ x: d }, 50, createRng(seed))) assert.ok(inside(c.x, d));
      }),
    );
  });
});
