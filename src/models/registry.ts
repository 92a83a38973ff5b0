/** Name → algorithm. Adding an algorithm is one file in its family folder and one line here. */
import type { Algorithm } from "./contract.js";
import { provideRegistry } from "./lazy-registry.js";
import { baseline } from "./baseline/baseline.js";
import { bayesAlgorithms } from "./bayes/index.js";
import { gradientBoosting } from "./ensemble/gradient-boosting/gradient-boosting.js";
import { c45 } from "./tree/c45.js";
import { cart } from "./tree/cart.js";
import { id3 } from "./tree/id3.js";
import { obliqueTree } from "./tree/oblique-tree.js";
import { linearAlgorithms } from "./linear/index.js";
import { mlp } from "./neural/mlp.js";
import { rbfNetwork } from "./neural/rbf-network.js";
import { som, somProjection } from "./neural/som.js";
import { art } from "./neural/art.js";
import { cascadeCorrelation } from "./neural/cascade-correlation.js";
import { knn } from "./neighbors/knn.js";
import { svm } from "./svm/svm.js";
import { svr } from "./svm/svr.js";
import { clusterAlgorithms } from "./cluster/index.js";
import { projectionAlgorithms } from "./projection/index.js";
import { constrainedKmeans, labelPropagation, labelSpreading, seededKmeans, selfTraining, semiSupervisedGmm, tsvm } from "./semi/index.js";
import { randomForest } from "./ensemble/random-forest.js";
import { bagging } from "./ensemble/bagging.js";
import { adaboost } from "./ensemble/adaboost.js";
import { easyEnsemble } from "./ensemble/easy-ensemble.js";
import { voting } from "./ensemble/voting.js";
import { stacking } from "./ensemble/stacking.js";
import { isolationForest } from "./anomaly/isolation-forest.js";

/**
 * Built on first use, not at import: ensembles (ensemble/) look their base learners up
 * here, so this module and theirs import each other, and whichever is imported first
 * must not read the other's exports while it is still being evaluated.
 */
function all(): readonly Algorithm[] {
  return [baseline, id3, c45, cart, obliqueTree, ...linearAlgorithms, mlp, rbfNetwork, cascadeCorrelation, svm, svr, randomForest, bagging, adaboost, easyEnsemble, voting, stacking, gradientBoosting, ...clusterAlgorithms, ...projectionAlgorithms, som, somProjection, art, labelPropagation, labelSpreading, selfTraining, seededKmeans, constrainedKmeans, semiSupervisedGmm, tsvm, ...bayesAlgorithms, knn, isolationForest];
}

let byName: Map<string, Algorithm> | null = null;
let list: readonly Algorithm[] | null = null;

export function getAlgorithm(name: string): Algorithm | undefined {
  byName ??= new Map(listAlgorithms().map((a) => [a.name, a]));
  return byName.get(name);
}

export function listAlgorithms(): readonly Algorithm[] {
  list ??= all();
  return list;
}

// Modules the server's main thread loads at start-up look algorithms up through lazy-registry.ts.
provideRegistry({ getAlgorithm, listAlgorithms });
