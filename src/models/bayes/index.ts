/** The Bayesian classifiers, for the registry. */
import type { Algorithm } from "../contract.js";
import { naiveBayes } from "./naive-bayes.js";

export { naiveBayes };

export const bayesAlgorithms: readonly Algorithm[] = [naiveBayes];
