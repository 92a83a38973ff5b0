/**
 * The clustering family against scikit-learn 1.2 (fixtures from scripts/fixtures/cluster_sklearn.py):
 * KMeans from the same explicit rows → the same centres to 1e-6 and labels; AgglomerativeClustering
 * → identical partitions; DBSCAN → identical core samples and labels; GaussianMixture from the
 * same weights, means and covariances → the same mean log-likelihood within 1e-3.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { agnes, agnesParams } from "../../../src/models/cluster/agnes.js";
import { dbscan, dbscanParams } from "../../../src/models/cluster/dbscan.js";
import { gmm, gmmParams, gmmScore } from "../../../src/models/cluster/gmm.js";
import { kmeans, kmeansParams } from "../../../src/models/cluster/kmeans.js";
import { ctx, frameOf, partition } from "./helpers.js";

interface Fixture {
  sklearn: string;
  data: Record<string, { n: number; d: number; X: number[] }>;
  kmeans: { data: string; rows: number[]; centres: number[]; labels: number[]; inertia: number; n_iter: number }[];
  agglomerative: { data: string; linkage: "single" | "complete" | "average" | "ward"; n_clusters: number; labels: number[] }[];
  dbscan: { data: string; eps: number; min_samples: number; core: number[]; labels: number[] }[];
  gmm: { data: string; rows: number[]; variance: number; covariance_type: "full" | "tied" | "diag" | "spherical"; score: number; n_iter: number; labels: number[] }[];
}

const ref = JSON.parse(readFileSync(new URL("../../fixtures/cluster/sklearn.json", import.meta.url), "utf8")) as Fixture;
const frame = (name: string) => frameOf(ref.data[name].X, ref.data[name].n, ref.data[name].d);

describe(`scikit-learn ${ref.sklearn} parity`, () => {
  for (const c of ref.kmeans) {
    test(`KMeans on ${c.data} from rows ${c.rows.join(", ")}: centres to 1e-6, labels, inertia, iterations`, () => {
      const s = kmeans.fit({ X: frame(c.data), target: null }, kmeansParams.parse({ n_clusters: c.rows.length, init: { kind: "rows", rows: c.rows } }), ctx());
      c.centres.forEach((v, i) => assert.ok(Math.abs(s.centres[i] - v) <= 1e-6, `centre value ${i}: ${s.centres[i]} vs ${v}`));
      assert.deepEqual(Array.from(s.labels), c.labels);
      assert.ok(Math.abs(s.inertia - c.inertia) <= 1e-6 * c.inertia);
      assert.equal(s.n_iter, c.n_iter);
    });
  }

  for (const data of [...new Set(ref.agglomerative.map((c) => c.data))]) {
    test(`AgglomerativeClustering on ${data}: identical partitions for single, complete, average, ward at 2, 3, 4, 5, 8 clusters`, () => {
      for (const c of ref.agglomerative.filter((x) => x.data === data)) {
        const s = agnes.fit({ X: frame(data), target: null }, agnesParams.parse({ linkage: c.linkage, cut: { kind: "n_clusters", n_clusters: c.n_clusters } }), ctx());
        assert.deepEqual(partition(s.labels), partition(c.labels), `${c.linkage}, ${c.n_clusters} clusters`);
      }
    });
  }

  for (const c of ref.dbscan) {
    test(`DBSCAN on ${c.data} (eps ${c.eps}, min_samples ${c.min_samples}): identical core samples and labels`, () => {
      const s = dbscan.fit({ X: frame(c.data), target: null }, dbscanParams.parse({ eps: c.eps, min_samples: c.min_samples }), ctx());
      assert.deepEqual(Array.from(s.core_rows), c.core);
      assert.deepEqual(Array.from(s.labels), c.labels);
    });
  }

  for (const c of ref.gmm) {
    test(`GaussianMixture (${c.covariance_type}) on ${c.data}: mean log-likelihood within 1e-3 from the same start`, () => {
      const X = frame(c.data);
      const s = gmm.fit({ X, target: null }, gmmParams.parse({ n_components: c.rows.length, covariance_type: c.covariance_type, init: { kind: "rows", rows: c.rows, variance: c.variance } }), ctx());
      const score = gmmScore(s, X);
      assert.ok(Math.abs(score - c.score) <= 1e-3, `${score} vs ${c.score}`);
      assert.equal(s.n_iter, c.n_iter);
      assert.deepEqual(partition(s.labels), partition(c.labels));
    });
  }
});
