/** The preprocessing steps by name (the `step` of a request's `preprocessing` entry). */
import { impute } from "./impute.js";
import { oneHot } from "./one-hot.js";
import type { Transform } from "./transform.js";

export const transforms: ReadonlyMap<string, Transform> = new Map<string, Transform>([
  [impute.name, impute as Transform],
  [oneHot.name, oneHot as Transform],
]);

export function getTransform(name: string): Transform | undefined {
  return transforms.get(name);
}
