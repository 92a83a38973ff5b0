/** Target and weight handling shared by the linear classifiers. */
import { UnusableInputError, type TrainingSet } from "../contract.js";

export function classificationTarget(train: TrainingSet, algorithm: string): { y: Int32Array; classes: readonly string[] } {
  if (!train.target || train.target.task !== "classification") throw new UnusableInputError(`${algorithm} needs a categorical (classification) target`);
  const { y, classes } = train.target;
  if (classes.length < 2) throw new UnusableInputError(`${algorithm} needs at least two classes`);
  return { y, classes };
}

export type ClassWeight = "balanced" | Record<string, number> | null;

/**
 * Per-class multipliers as scikit-learn's compute_class_weight: "balanced" gives
 * n / (K · count_k) over the labels of the problem at hand; a record names classes.
 */
export function classWeights(classWeight: ClassWeight, y: Int32Array, classes: readonly string[], algorithm: string): Float64Array {
  const k = classes.length;
  const out = new Float64Array(k).fill(1);
  if (classWeight === null) return out;
  if (classWeight === "balanced") {
    const counts = new Float64Array(k);
    for (let i = 0; i < y.length; i++) counts[y[i]]++;
    for (let c = 0; c < k; c++) out[c] = counts[c] > 0 ? y.length / (k * counts[c]) : 1;
    return out;
  }
  for (const [name, w] of Object.entries(classWeight)) {
    const c = classes.indexOf(name);
    if (c < 0) throw new UnusableInputError(`${algorithm}: class_weight names ${name}, which is not a class of the target`);
    out[c] = w;
  }
  return out;
}

/** Sample weight × class weight per row. */
export function rowWeights(y: Int32Array, perClass: Float64Array, sample?: Float64Array): Float64Array | undefined {
  if (!sample && perClass.every((w) => w === 1)) return undefined;
  const out = new Float64Array(y.length);
  for (let i = 0; i < y.length; i++) out[i] = perClass[y[i]] * (sample ? sample[i] : 1);
  return out;
}
