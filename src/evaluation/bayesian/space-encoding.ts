/**
 * A random search's space (search-space.ts) as the unit cube a Gaussian process
 * works in: uniform on a linear scale, loguniform on a log scale, randint as the
 * cell of [0, 1] each integer owns, and a list one-hot (one input per value; a
 * one-value list is a constant and takes none). Decoding snaps to a realisable
 * candidate, so the GP only ever sees points a candidate can be.
 */
import type { Rng } from "../../data/random.js";
import type { ParamDistributions } from "../search-space.js";

type Distribution = ParamDistributions[string];

interface Dimension {
  key: string;
  d: Distribution;
  /** First input of this parameter. */
  offset: number;
  /** Inputs it takes: 1 for a number, one per value for a list (0 for a single value). */
  width: number;
}

const clamp01 = (u: number) => Math.min(1, Math.max(0, u));

export class SpaceEncoding {
  readonly dims: readonly Dimension[];
  /** Inputs in all. */
  readonly size: number;

  constructor(space: ParamDistributions) {
    let offset = 0;
    this.dims = Object.keys(space).map((key) => {
      const d = space[key];
      const width = Array.isArray(d) ? (d.length > 1 ? d.length : 0) : 1;
      const dim = { key, d, offset, width };
      offset += width;
      return dim;
    });
    this.size = offset;
  }

  /** The unit-cube point of a candidate's values (a value not in its list encodes as no value: all zeros). */
  encode(params: Record<string, unknown>): Float64Array {
    const u = new Float64Array(this.size);
    for (const { key, d, offset, width } of this.dims) {
      const v = params[key];
      if (Array.isArray(d)) {
        const i = d.findIndex((x) => x === v);
        if (width > 0 && i >= 0) u[offset + i] = 1;
        continue;
      }
      const x = v as number;
      switch (d.distribution) {
        case "uniform":
          u[offset] = clamp01((x - d.low) / (d.high - d.low));
          break;
        case "loguniform":
          u[offset] = clamp01(Math.log(x / d.low) / Math.log(d.high / d.low));
          break;
        case "randint":
          u[offset] = clamp01((x - d.low + 0.5) / (d.high - d.low));
          break;
      }
    }
    return u;
  }

  /** The candidate at a unit-cube point: a list's value is its largest input (first on ties). */
  decode(u: ArrayLike<number>): Record<string, unknown> {
    const params: Record<string, unknown> = {};
    for (const { key, d, offset, width } of this.dims) {
      if (Array.isArray(d)) {
        let pick = 0;
        for (let i = 1; i < width; i++) if (u[offset + i] > u[offset + pick]) pick = i;
        params[key] = d[pick];
        continue;
      }
      const t = clamp01(u[offset]);
      switch (d.distribution) {
        case "uniform":
          params[key] = d.low + t * (d.high - d.low);
          break;
        case "loguniform":
          // exp(log) can land a rounding past high: clamp into the range the schema was checked on.
          params[key] = Math.min(d.high, Math.max(d.low, d.low * Math.exp(t * Math.log(d.high / d.low))));
          break;
        case "randint":
          params[key] = Math.min(d.high - 1, d.low + Math.floor(t * (d.high - d.low)));
          break;
      }
    }
    return params;
  }

  /** A uniform random point of the cube, a list's inputs one-hot at a random value. */
  sample(rng: Rng): Float64Array {
    const u = new Float64Array(this.size);
    for (const { d, offset, width } of this.dims) {
      if (Array.isArray(d)) {
        if (width > 0) u[offset + rng.int(width)] = 1;
      } else u[offset] = rng.next();
    }
    return u;
  }

  /**
   * A point near `u`: every numeric input moved by a normal step of sd `step`
   * (clamped to the cube), and each list switched to a random value with probability `step`.
   */
  perturb(u: Float64Array, step: number, rng: Rng): Float64Array {
    const out = Float64Array.from(u);
    for (const { d, offset, width } of this.dims) {
      if (Array.isArray(d)) {
        if (width > 0 && rng.next() < step) {
          out.fill(0, offset, offset + width);
          out[offset + rng.int(width)] = 1;
        }
      } else out[offset] = clamp01(u[offset] + step * rng.normal());
    }
    return out;
  }

  /** The realisable point a cube point stands for (its decoded candidate, encoded). */
  snap(u: ArrayLike<number>): Float64Array {
    return this.encode(this.decode(u));
  }
}
