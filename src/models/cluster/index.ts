/** The clustering family (seed 002 聚类), in the order GET /v1/algorithms lists them. */
import type { Algorithm } from "../contract.js";
import { agnes } from "./agnes.js";
import { bisectingKmeans } from "./bisecting-kmeans.js";
import { dbscan } from "./dbscan.js";
import { diana } from "./diana.js";
import { gmm } from "./gmm.js";
import { kmeans } from "./kmeans.js";
import { kmedoids } from "./kmedoids.js";
import { lvq } from "./lvq.js";
import { optics } from "./optics.js";

export const clusterAlgorithms: readonly Algorithm[] = [kmeans, bisectingKmeans, kmedoids, lvq, gmm, agnes, diana, dbscan, optics];
