/** Name → algorithm. Adding an algorithm is one file in its family folder and one line here. */
import type { Algorithm } from "./contract.js";
import { baseline } from "./baseline/baseline.js";
import { c45 } from "./tree/c45.js";
import { cart } from "./tree/cart.js";
import { id3 } from "./tree/id3.js";
import { obliqueTree } from "./tree/oblique-tree.js";
import { linearAlgorithms } from "./linear/index.js";
import { mlp } from "./neural/mlp.js";
import { knn } from "./neighbors/knn.js";
import { svm } from "./svm/svm.js";
import { svr } from "./svm/svr.js";

const algorithms: readonly Algorithm[] = [baseline, id3, c45, cart, obliqueTree, ...linearAlgorithms, mlp, svm, svr, knn];

const byName = new Map(algorithms.map((a) => [a.name, a]));

export function getAlgorithm(name: string): Algorithm | undefined {
  return byName.get(name);
}

export function listAlgorithms(): readonly Algorithm[] {
  return algorithms;
}
