/**
 * gradient_boosting: histogram gradient-boosted trees (scikit-learn's
 * HistGradientBoosting, XGBoost's second-order gains and leaf values, LightGBM's
 * leaf-wise growth and categorical splits). Layout as `_hist_gradient_boosting`:
 * binning.ts → histogram.ts → split.ts → grower.ts, losses.ts, boost.ts (the loop),
 * predict.ts (flat trees on raw values), state.ts (artifact schema).
 *
 * Takes categorical columns by code, missing values (a learned direction per split)
 * and sample weights natively. Splits compare one column with a threshold, so the
 * units of numeric inputs do not matter.
 */
import type { Algorithm } from "../../contract.js";
import { maxValuesOf, ValueBudget } from "../../explain-bounds.js";
import { fitBooster } from "./boost.js";
import { gradientBoostingParams, type GradientBoostingParams } from "./params.js";
import { predictBooster } from "./predict.js";
import { boosterStateSchema, type BoosterState } from "./state.js";

/** Total split gain and number of splits per feature, over every tree. */
export function featureImportances(s: BoosterState): { gain: Float64Array; splits: Float64Array } {
  const gain = new Float64Array(s.features.length);
  const splits = new Float64Array(s.features.length);
  for (let i = 0; i < s.feature.length; i++) {
    const f = s.feature[i];
    if (f < 0) continue;
    gain[f] += s.gain[i];
    splits[f]++;
  }
  return { gain, splits };
}

function explain(s: BoosterState, options?: { maxValues?: number }) {
  const budget = new ValueBudget(maxValuesOf(options?.maxValues));
  const { gain, splits } = featureImportances(s);
  const totalGain = gain.reduce((a, b) => a + b, 0);
  // Features by total gain, most important first; the listing stops where the allowance does.
  const order = Array.from({ length: s.features.length }, (_, j) => j).sort((a, b) => gain[b] - gain[a] || a - b);
  const listed = order.slice(0, Math.max(0, Math.floor(budget.remaining / 3)));
  budget.spend(3 * listed.length);
  const train = budget.take(s.trainLoss);
  const validation = s.validationLoss ? budget.take(s.validationLoss) : null;
  return {
    loss: s.loss,
    iterations: s.iterations,
    trees: s.iterations * s.outputs,
    trees_per_iteration: s.outputs,
    nodes: s.feature.length,
    baseline: Array.from(s.baseline),
    early_stopping: s.validationLoss !== null,
    /** Index 0 is the baseline's loss, index t the loss after t iterations. */
    train_loss: train.values,
    ...(train.truncated ? { train_loss_truncated: true } : {}),
    validation_loss: validation ? validation.values : null,
    ...(validation?.truncated ? { validation_loss_truncated: true } : {}),
    feature_importances: listed.map((j) => ({
      feature: s.features[j].name,
      gain: gain[j],
      gain_share: totalGain > 0 ? gain[j] / totalGain : 0,
      splits: splits[j],
    })),
    ...(listed.length < order.length ? { feature_importances_truncated: true } : {}),
  };
}

export const gradientBoosting: Algorithm<GradientBoostingParams, BoosterState> = {
  name: "gradient_boosting",
  family: "ensemble",
  tasks: ["classification", "regression"],
  description:
    "Histogram gradient-boosted trees: second-order (XGBoost) gains and leaf values, leaf-wise growth, log loss (binary or multinomial) or squared / absolute / Huber error, early stopping, native categorical and missing values.",
  params: gradientBoostingParams,
  state: boosterStateSchema,
  accepts: { categorical: true, missing: true, weights: true },
  scaleSensitive: false,
  fit: fitBooster,
  predict: predictBooster,
  explain,
};
