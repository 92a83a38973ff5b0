/** The projection family (seed 002 降维与度量学习): trained without a target (lda_projection, nca_projection and lmnn_projection: against classes), /predict answers `projections`. */
import type { Algorithm } from "../contract.js";
import { isomap } from "./isomap.js";
import { kernelPca } from "./kernel-pca.js";
import { ldaProjection } from "./lda-projection.js";
import { lmnnProjection } from "./lmnn-projection.js";
import { mds } from "./mds.js";
import { ncaProjection } from "./nca-projection.js";
import { pca } from "./pca.js";

export const projectionAlgorithms: readonly Algorithm[] = [pca, mds, kernelPca, isomap, ldaProjection, ncaProjection, lmnnProjection];
