/** The semi-supervised learners: rows without a target value are their unlabelled data. */
export { labelPropagation, labelSpreading } from "./label-propagation.js";
export { selfTraining } from "./self-training.js";
export { seededKmeans } from "./seeded-kmeans.js";
export { constrainedKmeans } from "./constrained-kmeans.js";
export { semiSupervisedGmm } from "./semi-gmm.js";
export { tsvm } from "./tsvm.js";
