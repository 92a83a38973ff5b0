/**
 * The .632 bootstrap estimate (seed 004 ".632 自助法"; Efron 1983). A bootstrap training
 * set holds about 63.2% of the distinct rows, so the out-of-bag error alone is pessimistic
 * and the training (resubstitution) error optimistic; each round blends them,
 *   ε_i = 0.368 · ε_train,i + 0.632 · ε_oob,i,
 * and the estimate is the mean over rounds. Any loss-like or score-like metric blends the
 * same way (e.g. accuracy), so the inputs need not be error rates.
 */
import type { MetricValue } from "../wire.js";

export interface Bootstrap632Estimate {
  estimate: MetricValue;
  train_mean: MetricValue;
  oob_mean: MetricValue;
  rounds: number;
}

export const OOB_WEIGHT = 0.632;

export function bootstrap632(train: ArrayLike<number>, oob: ArrayLike<number>): Bootstrap632Estimate {
  if (train.length !== oob.length) throw new RangeError("train and oob differ in length");
  const n = train.length;
  if (n === 0) return { estimate: null, train_mean: null, oob_mean: null, rounds: 0 };
  let t = 0;
  let o = 0;
  let blended = 0;
  for (let i = 0; i < n; i++) {
    t += train[i];
    o += oob[i];
    blended += (1 - OOB_WEIGHT) * train[i] + OOB_WEIGHT * oob[i];
  }
  return { estimate: blended / n, train_mean: t / n, oob_mean: o / n, rounds: n };
}
