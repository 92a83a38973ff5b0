/** The preprocessing steps by name (the `step` of a request's `preprocessing` entry). */
import { binarize } from "./binarize.js";
import { impute } from "./impute.js";
import { oneHot } from "./one-hot.js";
import { ordinal } from "./ordinal.js";
import { polynomial } from "./polynomial.js";
import { scale } from "./scale.js";
import type { Transform } from "./transform.js";
import { valueTransform } from "./value-transform.js";

export const transforms: ReadonlyMap<string, Transform> = new Map<string, Transform>(
  [impute, scale, binarize, oneHot, ordinal, valueTransform, polynomial].map((t) => [t.name, t as Transform]),
);

export function getTransform(name: string): Transform | undefined {
  return transforms.get(name);
}
