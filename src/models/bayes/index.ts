/** The Bayesian classifiers, for the registry. */
import type { Algorithm } from "../contract.js";
import { aode } from "./aode.js";
import { bayesNet } from "./bayes-net.js";
import { naiveBayes } from "./naive-bayes.js";
import { spode } from "./spode.js";
import { tan } from "./tan.js";

export { aode, bayesNet, naiveBayes, spode, tan };

export const bayesAlgorithms: readonly Algorithm[] = [naiveBayes, spode, aode, tan, bayesNet];
