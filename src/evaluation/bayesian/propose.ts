/**
 * The next candidate of a Bayesian search: fit a GP to the scored candidates and
 * take the point of the space with the largest expected improvement. EI is
 * maximised over a seeded random sample of the cube, then refined around the
 * best few points by shrinking random steps (EI is multi-modal and cheap: a
 * sample finds its basins, local steps climb them). Points are snapped to
 * realisable candidates before they are scored, and candidates already
 * evaluated are never proposed again.
 */
import type { Rng } from "../../data/random.js";
import type { ParamDistributions } from "../search-space.js";
import { expectedImprovement } from "./expected-improvement.js";
import { fitGaussianProcessSteps, runSteps, runStepsPausing, type Steps } from "./gaussian-process.js";
import { SpaceEncoding } from "./space-encoding.js";

/** Random points EI is scored at. */
export const EI_SAMPLES = 2000;
/** Best sampled points refined locally. */
const REFINED_STARTS = 5;
/** Local steps per start; the step's sd halves every STEPS_PER_SCALE steps. */
const REFINE_STEPS = 60;
const STEPS_PER_SCALE = 15;
const FIRST_STEP = 0.1;
/** EI evaluations between pauses (each O(n²)). */
const EI_PER_STEP = 250;

export interface Observation {
  params: Record<string, unknown>;
  /** Higher is better; null (a failed candidate) is not fitted. */
  score: number | null;
}

const keyOf = (encoding: SpaceEncoding, params: Record<string, unknown>) => JSON.stringify(encoding.dims.map((d) => params[d.key]));

/**
 * The candidate with the largest EI, or null when every point tried is a candidate
 * already evaluated (a small discrete space is exhausted). With no scored
 * observation, a random candidate not yet evaluated.
 */
export function proposeCandidate(space: ParamDistributions, observations: readonly Observation[], rng: Rng): Record<string, unknown> | null {
  return runSteps(proposeSteps(space, observations, rng));
}

/**
 * proposeCandidate, awaiting `pause` between bounded pieces of work (a GP fit per
 * hyperparameter pair, a few hundred EI evaluations): with 200 observations a
 * proposal takes a few hundred ms, which must not hold an API process's event loop.
 * The same proposal as proposeCandidate.
 */
export function proposeCandidatePausing(space: ParamDistributions, observations: readonly Observation[], rng: Rng, pause: () => Promise<unknown>): Promise<Record<string, unknown> | null> {
  return runStepsPausing(proposeSteps(space, observations, rng), pause);
}

function* proposeSteps(space: ParamDistributions, observations: readonly Observation[], rng: Rng): Steps<Record<string, unknown> | null> {
  const encoding = new SpaceEncoding(space);
  const taken = new Set(observations.map((o) => keyOf(encoding, o.params)));
  const fresh = (u: Float64Array) => !taken.has(keyOf(encoding, encoding.decode(u)));
  const scored = observations.filter((o): o is Observation & { score: number } => typeof o.score === "number" && Number.isFinite(o.score));

  const samples: Float64Array[] = [];
  for (let i = 0; i < EI_SAMPLES; i++) samples.push(encoding.snap(encoding.sample(rng)));
  if (scored.length === 0) return samples.find(fresh) ? encoding.decode(samples.find(fresh)!) : null;

  const d = encoding.size;
  const x = new Float64Array(scored.length * d);
  scored.forEach((o, i) => x.set(encoding.snap(encoding.encode(o.params)), i * d));
  const gp = yield* fitGaussianProcessSteps(x, scored.length, d, scored.map((o) => o.score));
  const best = Math.max(...scored.map((o) => o.score));
  let sinceStep = 0;
  const ei = (u: Float64Array) => {
    sinceStep++;
    if (!fresh(u)) return -1;
    const { mean, sd } = gp.predict(u);
    return expectedImprovement(mean, sd, best);
  };

  // The incumbent's neighbourhood is always refined: EI is often largest right next to it.
  const incumbent = encoding.snap(encoding.encode(scored.reduce((a, b) => (b.score > a.score ? b : a)).params));
  const scoredSamples: { u: Float64Array; value: number }[] = [];
  for (const u of samples) {
    scoredSamples.push({ u, value: ei(u) });
    if (sinceStep >= EI_PER_STEP) {
      sinceStep = 0;
      yield;
    }
  }
  scoredSamples.sort((a, b) => b.value - a.value);
  const starts = [...scoredSamples.slice(0, REFINED_STARTS), { u: incumbent, value: ei(incumbent) }];
  let winner = scoredSamples[0];
  for (const start of starts) {
    let current = start;
    for (let step = 0; step < REFINE_STEPS; step++) {
      const scale = FIRST_STEP / 2 ** Math.floor(step / STEPS_PER_SCALE);
      const u = encoding.snap(encoding.perturb(current.u, scale, rng));
      const value = ei(u);
      if (value > current.value) current = { u, value };
    }
    yield;
    if (current.value > winner.value) winner = current;
  }
  if (winner.value < 0) return null;
  return encoding.decode(winner.u);
}
