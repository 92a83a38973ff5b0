/** The linear family, for the registry. */
import type { Algorithm } from "../contract.js";
import { elasticNet } from "./elastic-net.js";
import { lasso } from "./lasso.js";
import { lda } from "./lda.js";
import { linearRegression } from "./linear-regression.js";
import { logisticRegression } from "./logistic-regression.js";
import { perceptron } from "./perceptron.js";
import { ridge } from "./ridge.js";
import { softmaxRegression } from "./softmax-regression.js";

export { elasticNet, lasso, lda, linearRegression, logisticRegression, perceptron, ridge, softmaxRegression };
export { ldaTransform, fitLda, type LdaState } from "./lda.js";

export const linearAlgorithms: readonly Algorithm[] = [linearRegression, ridge, lasso, elasticNet, logisticRegression, softmaxRegression, lda, perceptron];
