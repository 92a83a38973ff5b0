/**
 * The distance-based clusterings under manhattan, chebyshev and minkowski (p = 3), against
 * scikit-learn 1.2 and scipy (fixtures from scripts/fixtures/cluster_metrics_sklearn.py):
 * DBSCAN → identical core samples and labels; OPTICS → the same ordering, reachability and
 * xi labels; agglomerative single/complete/average → scipy's merge heights and identical
 * partitions; kmedoids → the optimal cost of an exhaustive search on 14 rows; diana → the
 * root's height is the largest pairwise distance under the metric. Ward and centroid refuse
 * a non-Euclidean metric when the parameters are read.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { agnes, agnesParams } from "../../../src/models/cluster/agnes.js";
import { dbscan, dbscanParams } from "../../../src/models/cluster/dbscan.js";
import { diana, dianaParams } from "../../../src/models/cluster/diana.js";
import { kmedoids, kmedoidsParams } from "../../../src/models/cluster/kmedoids.js";
import { optics, opticsParams } from "../../../src/models/cluster/optics.js";
import { vectorMetric } from "../../../src/data/neighbors/metric.js";
import { assertClose, ctx, frameOf, partition } from "./helpers.js";

type MetricName = "manhattan" | "chebyshev" | "minkowski";
interface Fixture {
  sklearn: string;
  data: Record<string, { n: number; d: number; X: number[] }>;
  dbscan: { data: string; eps: number; min_samples: number; metric: MetricName; p: number; core: number[]; labels: number[] }[];
  optics: { data: string; min_samples: number; metric: MetricName; p: number; ordering: number[]; reachability: (number | null)[]; core_distances: (number | null)[]; labels: number[] }[];
  agglomerative: { data: string; metric: MetricName; p: number; linkage: "single" | "complete" | "average"; heights: number[]; labels: Record<string, number[]> }[];
  pam_cost: { data: string; metric: MetricName; p: number; k: number; cost: number }[];
}

const ref = JSON.parse(readFileSync(new URL("../../fixtures/cluster/metrics_sklearn.json", import.meta.url), "utf8")) as Fixture;
const train = (name: string) => ({ X: frameOf(ref.data[name].X, ref.data[name].n, ref.data[name].d), target: null });
const label = (c: { metric: MetricName; p: number }) => (c.metric === "minkowski" ? `minkowski p=${c.p}` : c.metric);

describe(`clustering metrics against scikit-learn ${ref.sklearn}`, () => {
  for (const c of ref.dbscan) {
    test(`DBSCAN ${label(c)} on ${c.data}: identical core samples and labels`, () => {
      const s = dbscan.fit(train(c.data), dbscanParams.parse({ eps: c.eps, min_samples: c.min_samples, metric: c.metric, p: c.p }), ctx());
      assert.ok(c.core.length > 0 && c.core.length < ref.data[c.data].n, "the case has core and non-core rows");
      assert.deepEqual(Array.from(s.core_rows), c.core);
      assert.deepEqual(Array.from(s.labels), c.labels);
      // A training row predicted again joins its own cluster when it is a core row.
      const again = dbscan.predict(s, train(c.data).X);
      assert.equal(again.task, "clustering");
      for (const r of c.core) assert.equal(again.labels[r], c.labels[r], `core row ${r}`);
    });
  }

  for (const c of ref.optics) {
    test(`OPTICS ${label(c)} on ${c.data}: ordering, reachability to 1e-9 and xi labels`, () => {
      const s = optics.fit(train(c.data), opticsParams.parse({ min_samples: c.min_samples, metric: c.metric, p: c.p }), ctx());
      assert.deepEqual(Array.from(s.ordering), c.ordering);
      c.reachability.forEach((v, i) => (v === null ? assert.equal(s.reachability[i], Infinity) : assertClose(s.reachability[i], v, 1e-9, `reachability ${i}`)));
      c.core_distances.forEach((v, i) => v !== null && assertClose(s.core_distances[i], v, 1e-9, `core distance ${i}`));
      assert.deepEqual(Array.from(s.labels), c.labels);
    });
  }

  for (const c of ref.agglomerative) {
    test(`agglomerative ${c.linkage} ${label(c)} on ${c.data}: scipy's heights and identical partitions`, () => {
      for (const [k, labels] of Object.entries(c.labels)) {
        const s = agnes.fit(train(c.data), agnesParams.parse({ linkage: c.linkage, metric: c.metric, p: c.p, cut: { kind: "n_clusters", n_clusters: Number(k) } }), ctx());
        const heights = Array.from(s.height).sort((a, b) => a - b);
        c.heights.forEach((h, i) => assertClose(heights[i], h, 1e-9, `height ${i}`));
        assert.deepEqual(partition(s.labels), partition(labels), `${k} clusters`);
      }
    });
  }

  for (const c of ref.pam_cost) {
    test(`kmedoids ${label(c)}, k = ${c.k} on ${c.data}: the optimal cost of an exhaustive search`, () => {
      const s = kmedoids.fit(train(c.data), kmedoidsParams.parse({ n_clusters: c.k, metric: c.metric, p: c.p }), ctx());
      // PAM is a local search; on 14 rows it reaches the optimum, which the exhaustive search gives.
      assertClose(s.inertia, c.cost, 1e-9, "cost");
      const again = kmedoids.predict(s, train(c.data).X);
      assert.equal(again.task, "clustering");
      assert.deepEqual(Array.from(again.labels), Array.from(s.labels), "a training row joins the medoid PAM assigned");
    });
  }

  test("diana: the root splits at the largest pairwise distance under the metric", () => {
    const { n, d, X } = ref.data.tiny14x2;
    const rows = Float64Array.from(X);
    for (const [metric, p] of [["manhattan", 2], ["chebyshev", 2], ["minkowski", 3]] as const) {
      const m = vectorMetric(metric, p);
      let diameter = 0;
      for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) diameter = Math.max(diameter, m.toDistance(m.reduced(rows, i, rows, j, d)));
      const s = diana.fit(train("tiny14x2"), dianaParams.parse({ metric, p, cut: { kind: "n_clusters", n_clusters: 2 } }), ctx());
      assertClose(Math.max(...s.height), diameter, 1e-12, `${metric} root height`);
    }
  });

  test("ward and centroid linkage refuse a non-Euclidean metric when the parameters are read", () => {
    for (const linkage of ["ward", "centroid"]) {
      const r = agnesParams.safeParse({ linkage, metric: "manhattan" });
      assert.equal(r.success, false);
      assert.deepEqual(r.error?.issues[0].path, ["metric"]);
    }
    assert.equal(agnesParams.safeParse({ linkage: "average", metric: "manhattan" }).success, true);
  });
});
