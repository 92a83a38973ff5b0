/**
 * Candidate parameter sets for hyper-parameter search (seed 002 "网格搜索 /
 * 随机搜索"): the full Cartesian product of a grid, or n_iter seeded draws from
 * distributions. Pure; the candidates are then validated by the algorithm's schema.
 */
import { z } from "zod";
import type { Rng } from "../data/random.js";

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const paramGridSchema = z
  .record(z.string(), z.array(z.unknown()).min(1).max(1000))
  .describe("Parameter → list of values; every combination is a candidate.");

export const distributionSchema = z.union([
  z.array(scalar).min(1).describe("Uniform choice among these values."),
  z.object({ distribution: z.literal("uniform"), low: z.number(), high: z.number() }).strict(),
  z.object({ distribution: z.literal("loguniform"), low: z.number().positive(), high: z.number().positive() }).strict(),
  z.object({ distribution: z.literal("randint"), low: z.number().int(), high: z.number().int().describe("Exclusive, as scipy.stats.randint.") }).strict(),
]);

export const paramDistributionsSchema = z.record(z.string(), distributionSchema).describe("Parameter → distribution to draw from.");

export type ParamGrid = z.infer<typeof paramGridSchema>;
export type ParamDistributions = z.infer<typeof paramDistributionsSchema>;

export function gridSize(grid: ParamGrid): number {
  return Object.values(grid).reduce((n, values) => n * values.length, 1);
}

/** Candidates in sklearn's ParameterGrid order: the last parameter varies fastest. */
export function gridCandidates(grid: ParamGrid): Record<string, unknown>[] {
  const keys = Object.keys(grid);
  let out: Record<string, unknown>[] = [{}];
  for (const key of keys) out = out.flatMap((partial) => grid[key].map((v) => ({ ...partial, [key]: v })));
  return out;
}

function draw(d: ParamDistributions[string], rng: Rng): unknown {
  if (Array.isArray(d)) return d[rng.int(d.length)];
  switch (d.distribution) {
    case "uniform":
      return d.low + rng.next() * (d.high - d.low);
    case "loguniform":
      return Math.exp(Math.log(d.low) + rng.next() * (Math.log(d.high) - Math.log(d.low)));
    case "randint":
      return d.low + rng.int(d.high - d.low);
  }
}

/**
 * n_iter draws. When every distribution is a finite list, draws are without
 * replacement over the grid they span (as sklearn's ParameterSampler), so no
 * candidate is evaluated twice.
 */
export function randomCandidates(space: ParamDistributions, nIter: number, rng: Rng): Record<string, unknown>[] {
  const keys = Object.keys(space);
  if (keys.every((k) => Array.isArray(space[k]))) {
    const all = gridCandidates(space as ParamGrid);
    const order = all.map((_, i) => i);
    for (let i = order.length - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      [order[i], order[j]] = [order[j], order[i]];
    }
    return order.slice(0, Math.min(nIter, all.length)).map((i) => all[i]);
  }
  return Array.from({ length: nIter }, () => Object.fromEntries(keys.map((k) => [k, draw(space[k], rng)])));
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
