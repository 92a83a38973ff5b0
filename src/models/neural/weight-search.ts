/**
 * Global searches over a small network's weights (seed 003's ways out of local minima, beside
 * n_restarts): simulated annealing (模拟退火: accept a worse point with a probability that falls
 * as the temperature cools) and a genetic algorithm (遗传算法). Either one picks the point BP
 * starts from; BP (max_iter epochs) then descends from it. Both minimise the full-batch training
 * loss with the L2 term, one forward pass over every row per evaluation: slow by design, for tiny
 * networks only — at most MAX_SEARCH_WEIGHTS weights and MAX_SEARCH_EVALUATIONS evaluations.
 *
 *   simulated_annealing: from the initial weights, each step proposes w + step_size·N(0, I); a
 *     better point is taken, a worse one with probability exp(−Δ/T); T cools geometrically from
 *     initial_temperature to a thousandth of it over the iterations. The best point seen wins.
 *   genetic: a population of the initial weights and population − 1 fresh seeded
 *     initialisations; each generation keeps the two best (elitism) and fills the rest with
 *     children of tournament-selected parents (uniform crossover, then each weight mutated with
 *     probability mutation_rate by mutation_scale·N(0, 1)). The best individual ever seen wins.
 */
import { z } from "zod";
import type { Rng } from "../../data/random.js";
import { throwIfAborted, UnusableInputError, type AbortFlag } from "../contract.js";
import { initialParams, weightNorm2, type InitName, type Network } from "./network.js";
import { groupDigits } from "../../data/group-digits.js";

export const MAX_SEARCH_WEIGHTS = 10_000;
export const MAX_SEARCH_EVALUATIONS = 100_000;

export const weightSearchSchema = z
  .discriminatedUnion("kind", [
    z.object({ kind: z.literal("none") }).strict(),
    z
      .object({
        kind: z.literal("simulated_annealing"),
        iterations: z.int().min(1).max(MAX_SEARCH_EVALUATIONS).default(2000),
        initial_temperature: z.number().gt(0).max(1e6).default(0.1),
        step_size: z.number().gt(0).max(100).default(0.3),
      })
      .strict(),
    z
      .object({
        kind: z.literal("genetic"),
        population: z.int().min(2).max(1000).default(30),
        generations: z.int().min(1).max(MAX_SEARCH_EVALUATIONS).default(100),
        mutation_rate: z.number().gt(0).max(1).default(0.1),
        mutation_scale: z.number().gt(0).max(100).default(0.5),
      })
      .strict(),
  ])
  .default({ kind: "none" })
  .describe(
    `Where BP starts: {"kind":"none"} (the initialisation), or a global search of the weights first — {"kind":"simulated_annealing"} or {"kind":"genetic"} — slow (a pass over every row per evaluation): networks of at most ${groupDigits(MAX_SEARCH_WEIGHTS)} weights, at most ${groupDigits(MAX_SEARCH_EVALUATIONS)} evaluations (population × generations).`,
  );
export type WeightSearch = z.infer<typeof weightSearchSchema>;

export interface SearchProblem {
  net: Network;
  X: Float64Array;
  Y: Float64Array;
  n: number;
  alpha: number;
  init: InitName;
  signal?: AbortFlag;
}

function objective(p: SearchProblem): (w: Float64Array) => number {
  return (w) => {
    const value = p.net.meanLoss(w, p.X, p.Y, p.n) + (p.alpha > 0 ? (0.5 * p.alpha * weightNorm2(w, p.net.spec, p.net.layout)) / p.n : 0);
    return Number.isFinite(value) ? value : Infinity;
  };
}

/** The searched starting point (a new array); w0 is left as it is. */
export function searchWeights(search: WeightSearch, w0: Float64Array, problem: SearchProblem, rng: Rng): Float64Array {
  if (search.kind === "none") return w0;
  if (w0.length > MAX_SEARCH_WEIGHTS) throw new UnusableInputError(`weight_search ${search.kind} is for tiny networks: this one has ${w0.length} weights, more than ${MAX_SEARCH_WEIGHTS}; use n_restarts`);
  const f = objective(problem);
  return search.kind === "simulated_annealing" ? anneal(search, w0, f, rng, problem.signal) : evolve(search, w0, f, problem, rng);
}

function anneal(s: Extract<WeightSearch, { kind: "simulated_annealing" }>, w0: Float64Array, f: (w: Float64Array) => number, rng: Rng, signal?: AbortFlag): Float64Array {
  let current = Float64Array.from(w0);
  let value = f(current);
  let best = Float64Array.from(current);
  let bestValue = value;
  const proposal = new Float64Array(w0.length);
  for (let k = 0; k < s.iterations; k++) {
    if ((k & 63) === 0) throwIfAborted(signal);
    const T = s.initial_temperature * 1e-3 ** (s.iterations > 1 ? k / (s.iterations - 1) : 0);
    for (let i = 0; i < proposal.length; i++) proposal[i] = current[i] + s.step_size * rng.normal();
    const v = f(proposal);
    if (v <= value || rng.next() < Math.exp(-(v - value) / T)) {
      [current, value] = [Float64Array.from(proposal), v];
      if (v < bestValue) [best, bestValue] = [Float64Array.from(proposal), v];
    }
  }
  return best;
}

function evolve(s: Extract<WeightSearch, { kind: "genetic" }>, w0: Float64Array, f: (w: Float64Array) => number, problem: SearchProblem, rng: Rng): Float64Array {
  const size = s.population;
  let population = [Float64Array.from(w0), ...Array.from({ length: size - 1 }, () => initialParams(problem.net.spec, rng, problem.init))];
  let fitness = population.map(f);
  let best = population[argmin(fitness)];
  let bestValue = Math.min(...fitness);
  const pick = () => {
    const a = rng.int(size);
    const b = rng.int(size);
    return fitness[a] <= fitness[b] ? population[a] : population[b];
  };
  for (let g = 0; g < s.generations; g++) {
    throwIfAborted(problem.signal);
    const order = fitness.map((_, i) => i).sort((a, b) => fitness[a] - fitness[b] || a - b);
    const next = order.slice(0, Math.min(2, size)).map((i) => population[i]);
    while (next.length < size) {
      const [p1, p2] = [pick(), pick()];
      const child = Float64Array.from(p1, (v, i) => (rng.next() < 0.5 ? v : p2[i]));
      for (let i = 0; i < child.length; i++) if (rng.next() < s.mutation_rate) child[i] += s.mutation_scale * rng.normal();
      next.push(child);
    }
    population = next;
    fitness = population.map(f);
    const i = argmin(fitness);
    if (fitness[i] < bestValue) [best, bestValue] = [population[i], fitness[i]];
  }
  return Float64Array.from(best);
}

function argmin(values: readonly number[]): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i] < values[best]) best = i;
  return best;
}
