/**
 * Candidate parameter sets for hyper-parameter search (seed 002 "网格搜索 /
 * 随机搜索"): a grid's Cartesian product in order, or n_iter seeded draws from
 * distributions. Pure; the candidates are then validated by the algorithm's schema.
 *
 * Nothing here materialises a product: sizes are counted with BigInt (64 lists of
 * 1,000 values span 10^192 candidates), a grid candidate is decoded from its
 * mixed-radix index, and random draws pick one index per parameter.
 */
import { z } from "zod";
import type { Rng } from "../data/random.js";

/** Values in one grid or distribution list. */
export const MAX_LIST_VALUES = 1000;
/** Parameters in one search space: more than any algorithm has. */
export const MAX_SEARCH_PARAMS = 64;
/** Nesting of one parameter value (`[[64, 32]]` is 2): deep enough for any schema, shallow enough that no check recurses far. */
export const MAX_VALUE_DEPTH = 8;
/**
 * Random search over lists only: up to this many combinations (or twice n_iter),
 * candidates come from a shuffle of all indices, as before; above it, from
 * independent per-parameter draws with repeats rejected.
 */
export const FULL_SHUFFLE_LIMIT = 100_000;
/** randint's high − low: past 2^52, floor(u · span) can round up to span itself and draw `high`. */
export const MAX_RANDINT_SPAN = 2 ** 32;

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const paramName = z.string().min(1).max(100);

export const paramGridSchema = z
  .record(paramName, z.array(z.unknown()).min(1).max(MAX_LIST_VALUES))
  .describe(
    `Parameter → list of values (at most ${MAX_LIST_VALUES} values, ${MAX_SEARCH_PARAMS} parameters, values nested at most ${MAX_VALUE_DEPTH} deep); every combination is a candidate.`,
  );

export const distributionSchema = z.union([
  z.array(scalar).min(1).max(MAX_LIST_VALUES).describe("Uniform choice among these values."),
  z.object({ distribution: z.literal("uniform"), low: z.number(), high: z.number().describe("Greater than low.") }).strict(),
  z.object({ distribution: z.literal("loguniform"), low: z.number().positive(), high: z.number().positive().describe("Greater than low.") }).strict(),
  z.object({ distribution: z.literal("randint"), low: z.number().int(), high: z.number().int().describe(`Exclusive, as scipy.stats.randint: greater than low, at most low + ${MAX_RANDINT_SPAN}.`) }).strict(),
]);

export const paramDistributionsSchema = z
  .record(paramName, distributionSchema)
  .describe(`Parameter → distribution to draw from (at most ${MAX_SEARCH_PARAMS} parameters).`);

export type ParamGrid = z.infer<typeof paramGridSchema>;
export type ParamDistributions = z.infer<typeof paramDistributionsSchema>;
type Distribution = ParamDistributions[string];

export interface SpaceIssue {
  /** Relative to the space: `max_depth`, `max_depth.low`, `max_depth[3]`. */
  path: string;
  message: string;
}

/** True when `value` nests deeper than `max` arrays/objects. Iterative: a 5,000-level value must not exhaust the stack. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

function distributionIssue(d: Distribution): SpaceIssue | null {
  if (Array.isArray(d)) return null;
  if (!(d.low < d.high)) return { path: "high", message: `high (${d.high}) must be greater than low (${d.low})` };
  if (d.distribution === "uniform" && !Number.isFinite(d.high - d.low)) return { path: "high", message: "high − low overflows a double" };
  if (d.distribution === "randint" && d.high - d.low > MAX_RANDINT_SPAN) return { path: "high", message: `high − low is above ${MAX_RANDINT_SPAN}` };
  return null;
}

/**
 * What makes a well-typed space unusable: too many parameters, a value nested too
 * deep (grids), an empty or inverted range (distributions). Checked before any
 * candidate is built or any message quotes a value.
 */
export function searchSpaceIssues(space: ParamGrid | ParamDistributions): SpaceIssue[] {
  const keys = Object.keys(space);
  if (keys.length > MAX_SEARCH_PARAMS) return [{ path: "", message: `${keys.length} parameters; at most ${MAX_SEARCH_PARAMS}` }];
  const issues: SpaceIssue[] = [];
  for (const key of keys) {
    const d = space[key] as unknown[] | Distribution;
    if (Array.isArray(d)) {
      const deep = d.findIndex((v) => nestsDeeperThan(v, MAX_VALUE_DEPTH));
      if (deep >= 0) issues.push({ path: `${key}[${deep}]`, message: `nested more than ${MAX_VALUE_DEPTH} levels deep` });
    } else {
      const issue = distributionIssue(d);
      if (issue) issues.push({ path: `${key}.${issue.path}`, message: issue.message });
    }
  }
  return issues;
}

/** Candidates in a grid (or in a space of lists), counted exactly. */
export function gridSize(grid: Readonly<Record<string, readonly unknown[]>>): bigint {
  let n = 1n;
  for (const values of Object.values(grid)) n *= BigInt(values.length);
  return n;
}

/** The grid candidate at `index` in sklearn's ParameterGrid order: the last parameter varies fastest. */
function candidateAt(keys: readonly string[], lists: readonly (readonly unknown[])[], index: number): Record<string, unknown> {
  const picks = new Array<number>(keys.length);
  for (let k = keys.length - 1; k >= 0; k--) {
    picks[k] = index % lists[k].length;
    index = Math.floor(index / lists[k].length);
  }
  return Object.fromEntries(keys.map((key, k) => [key, lists[k][picks[k]]]));
}

/**
 * Every candidate of the grid, in ParameterGrid order. The caller bounds the size
 * first (`gridSize`); past `max` this throws rather than allocate.
 */
export function gridCandidates(grid: ParamGrid, max: number): Record<string, unknown>[] {
  const size = gridSize(grid);
  if (size > BigInt(max)) throw new RangeError(`the grid spans ${size} candidates; at most ${max}`);
  const keys = Object.keys(grid);
  const lists = keys.map((k) => grid[k]);
  return Array.from({ length: Number(size) }, (_, i) => candidateAt(keys, lists, i));
}

function draw(d: Exclude<Distribution, unknown[]>, rng: Rng): number {
  switch (d.distribution) {
    case "uniform":
      return d.low + rng.next() * (d.high - d.low);
    case "loguniform":
      return Math.exp(Math.log(d.low) + rng.next() * (Math.log(d.high) - Math.log(d.low)));
    case "randint":
      return d.low + rng.int(d.high - d.low);
  }
}

/** min(nIter, size) distinct grid indices: a Fisher–Yates shuffle of all of them, the first nIter kept. */
function shuffledIndices(size: number, nIter: number, rng: Rng): number[] {
  const order = new Uint32Array(size);
  for (let i = 0; i < size; i++) order[i] = i;
  for (let i = size - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    const t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  return Array.from(order.subarray(0, Math.min(nIter, size)));
}

/**
 * nIter distinct candidates from a space of lists spanning more than 2 × nIter:
 * one uniform index per list is a uniform draw from the product; a repeat (each
 * draw repeats with probability < 1/2) is drawn again.
 */
function distinctDraws(keys: readonly string[], lists: readonly (readonly unknown[])[], nIter: number, rng: Rng): Record<string, unknown>[] {
  const seen = new Set<string>();
  const out: Record<string, unknown>[] = [];
  while (out.length < nIter) {
    const picks = lists.map((values) => rng.int(values.length));
    const key = picks.join(",");
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(Object.fromEntries(keys.map((k, i) => [k, lists[i][picks[i]]])));
  }
  return out;
}

/**
 * nIter draws (the caller bounds nIter). When every distribution is a finite list,
 * draws are without replacement over the grid they span (as sklearn's
 * ParameterSampler), so no candidate is evaluated twice and a space smaller than
 * nIter gives each of its candidates once.
 */
export function randomCandidates(space: ParamDistributions, nIter: number, rng: Rng): Record<string, unknown>[] {
  const keys = Object.keys(space);
  if (keys.every((k) => Array.isArray(space[k]))) {
    const lists = keys.map((k) => space[k] as unknown[]);
    const size = gridSize(Object.fromEntries(keys.map((k, i) => [k, lists[i]])));
    if (size <= BigInt(Math.max(FULL_SHUFFLE_LIMIT, 2 * nIter))) {
      return shuffledIndices(Number(size), nIter, rng).map((i) => candidateAt(keys, lists, i));
    }
    return distinctDraws(keys, lists, nIter, rng);
  }
  return Array.from({ length: nIter }, () =>
    Object.fromEntries(keys.map((k) => {
      const d = space[k];
      return [k, Array.isArray(d) ? d[rng.int(d.length)] : draw(d, rng)];
    })),
  );
}

/** Ranks as sklearn's rank_test_score: 1 is best, ties share the lowest rank ("min"), missing scores rank last. */
export function rankScores(scores: readonly (number | null)[], higherIsBetter: boolean): (number | null)[] {
  const valid = scores.map((s, i) => ({ s, i })).filter((x): x is { s: number; i: number } => typeof x.s === "number");
  valid.sort((a, b) => (higherIsBetter ? b.s - a.s : a.s - b.s));
  const ranks: (number | null)[] = scores.map(() => null);
  valid.forEach((x, pos) => {
    ranks[x.i] = pos > 0 && valid[pos - 1].s === x.s ? ranks[valid[pos - 1].i] : pos + 1;
  });
  return ranks;
}
