/** Initial centres for the k-means family, from the `init` parameter (row ids are 0-based training rows). */
import type { Rng } from "../../data/random.js";
import { UnusableInputError, type AbortFlag } from "../contract.js";
import { centresAtRows, kmeansPlusPlus, randomRows, type Rows } from "./kmeans-engine.js";
import type { KmeansInit } from "./params.js";

export function initialRows(X: Rows, n: number, d: number, k: number, init: KmeansInit, rng: Rng, signal?: AbortFlag, count = "n_clusters"): number[] {
  if (init.kind === "rows") {
    if (init.rows.length !== k) throw new UnusableInputError(`init names ${init.rows.length} rows for ${k} clusters (${count}); give one row per cluster`);
    const bad = init.rows.find((r) => r >= n);
    if (bad !== undefined) throw new UnusableInputError(`init row ${bad} is not a training row (there are ${n}, numbered from 0)`);
    return [...init.rows];
  }
  return init.kind === "random" ? randomRows(n, k, rng) : kmeansPlusPlus(X, n, d, k, rng, signal);
}

export function initialCentres(X: Rows, n: number, d: number, k: number, init: KmeansInit, rng: Rng, signal?: AbortFlag): Float64Array {
  return centresAtRows(X, d, initialRows(X, n, d, k, init, rng, signal));
}

export function checkClusterCount(n: number, k: number, what = "n_clusters"): void {
  if (n < k) throw new UnusableInputError(`${what} is ${k} but there are only ${n} training rows`);
}
