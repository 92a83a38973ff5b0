/**
 * The out-of-bag estimate (seed 002, Bagging): each training row is predicted only
 * by the members whose bootstrap did not draw it, and those predictions are scored
 * against its target — a held-out estimate that costs no held-out rows. About 1/e
 * of the rows are out of each bootstrap, so with a few dozen members nearly every
 * row gets a prediction; rows that no member left out are not scored.
 */
import { z } from "zod";
import type { Target } from "../contract.js";

export const oobSchema = z
  .object({
    metric: z.enum(["accuracy", "r2"]),
    /** Null when no row was out of every bag it could be scored in (bootstrap off, or too few members). */
    score: z.number().nullable(),
    /** Rows with at least one out-of-bag prediction. */
    rows_scored: z.int().min(0),
    /** Mean share of the training rows left out of a member's draw (→ 1/e for a full bootstrap). */
    share_out_of_bag: z.number().min(0).max(1),
  })
  .strict();
export type OobEstimate = z.infer<typeof oobSchema>;

export class OobAccumulator {
  private readonly sum: Float64Array;
  private readonly votes: Int32Array;
  private shareTotal = 0;
  private members = 0;

  /** width: classes (probabilities or votes are summed) or 1 (values are averaged). */
  constructor(
    private readonly target: Target,
    private readonly width: number,
  ) {
    this.sum = new Float64Array(target.y.length * width);
    this.votes = new Int32Array(target.y.length);
  }

  /** A member's outputs for the rows it left out: `outputs` is rows.length × width, or n × width when `rows` lists every row by index. */
  add(rows: Int32Array, outputs: Float64Array, allRows: boolean): void {
    const W = this.width;
    for (let r = 0; r < rows.length; r++) {
      const i = rows[r];
      const o = (allRows ? i : r) * W;
      for (let c = 0; c < W; c++) this.sum[i * W + c] += outputs[o + c];
      this.votes[i]++;
    }
    this.shareTotal += rows.length / this.target.y.length;
    this.members++;
  }

  result(): OobEstimate {
    const n = this.target.y.length;
    const W = this.width;
    const share = this.members > 0 ? this.shareTotal / this.members : 0;
    let scored = 0;
    if (this.target.task === "classification") {
      let correct = 0;
      for (let i = 0; i < n; i++) {
        if (this.votes[i] === 0) continue;
        scored++;
        let best = 0;
        for (let k = 1; k < W; k++) if (this.sum[i * W + k] > this.sum[i * W + best]) best = k;
        if (best === this.target.y[i]) correct++;
      }
      return { metric: "accuracy", score: scored > 0 ? correct / scored : null, rows_scored: scored, share_out_of_bag: share };
    }
    const y = this.target.y;
    let mean = 0;
    for (let i = 0; i < n; i++) {
      if (this.votes[i] === 0) continue;
      scored++;
      mean += y[i];
    }
    if (scored === 0) return { metric: "r2", score: null, rows_scored: 0, share_out_of_bag: share };
    mean /= scored;
    let res = 0;
    let tot = 0;
    for (let i = 0; i < n; i++) {
      if (this.votes[i] === 0) continue;
      res += (y[i] - this.sum[i] / this.votes[i]) ** 2;
      tot += (y[i] - mean) ** 2;
    }
    return { metric: "r2", score: tot > 0 ? 1 - res / tot : null, rows_scored: scored, share_out_of_bag: share };
  }
}

/** Rows with a zero count: the member's out-of-bag rows. */
export function outOfBag(counts: Float64Array): Int32Array {
  let m = 0;
  for (let i = 0; i < counts.length; i++) if (counts[i] === 0) m++;
  const out = new Int32Array(m);
  for (let i = 0, j = 0; i < counts.length; i++) if (counts[i] === 0) out[j++] = i;
  return out;
}
