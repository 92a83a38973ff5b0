/** The clustering family (seed 002 聚类), in the order GET /v1/algorithms lists them. */
import type { Algorithm } from "../contract.js";
import { kmeans } from "./kmeans.js";

export const clusterAlgorithms: readonly Algorithm[] = [kmeans];
