/**
 * Thinning a stored curve for display (API.md `curve_points`). Always keeps both end
 * points. For a ROC curve the points of its upper convex hull come first — they are the
 * operating points a threshold choice can actually reach, and they fix the curve's outline.
 * The remaining budget is spent top-down, Douglas–Peucker by priority: repeatedly add the
 * point farthest (perpendicular distance) from the polyline kept so far, so the largest
 * deviation from the full curve shrinks with every point spent. A P-R curve (not convex
 * in any useful sense) starts from its end points alone. When the hull alone exceeds the
 * budget, its own points are chosen the same way. Curves with null coordinates (a
 * degenerate single-class curve) are thinned evenly.
 *
 * Cost: one pass to find the hull, then each added point rescans only the segment it
 * splits — about n·log(maxPoints) distance evaluations, sequential in memory; a
 * bottom-up (Visvalingam) heap over all n points was ~50× slower on a million points.
 */
import type { MetricValue } from "../wire.js";

type Coord = number | null;

export interface RocCurveLike {
  fpr: ArrayLike<Coord>;
  tpr: ArrayLike<Coord>;
  thresholds: ArrayLike<Coord>;
}

export interface PrCurveLike {
  precision: ArrayLike<Coord>;
  recall: ArrayLike<Coord>;
  thresholds: ArrayLike<Coord>;
}

export function downsampleCurve(curve: RocCurveLike, maxPoints: number): { fpr: MetricValue[]; tpr: MetricValue[]; thresholds: MetricValue[] };
export function downsampleCurve(curve: PrCurveLike, maxPoints: number): { precision: MetricValue[]; recall: MetricValue[]; thresholds: MetricValue[] };
export function downsampleCurve(curve: RocCurveLike | PrCurveLike, maxPoints: number): Record<string, MetricValue[]> {
  if (!Number.isInteger(maxPoints) || maxPoints < 2) throw new RangeError("maxPoints must be an integer ≥ 2");
  if ("fpr" in curve) {
    const keep = keptIndices(curve.fpr, curve.tpr, maxPoints, true);
    return { fpr: pick(curve.fpr, keep), tpr: pick(curve.tpr, keep), thresholds: pick(curve.thresholds, keep) };
  }
  const keep = keptIndices(curve.recall, curve.precision, maxPoints, false);
  // A P-R curve has one threshold fewer than points: its last point (recall 0) has none.
  return { precision: pick(curve.precision, keep), recall: pick(curve.recall, keep), thresholds: pick(curve.thresholds, keep) };
}

/** Indices (ascending) of the points to keep. */
export function keptIndices(x: ArrayLike<Coord>, y: ArrayLike<Coord>, maxPoints: number, hullFirst: boolean): Int32Array {
  const n = x.length;
  if (y.length !== n) throw new RangeError("coordinate arrays differ in length");
  if (n <= maxPoints) return Int32Array.from({ length: n }, (_, i) => i);
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const xi = x[i];
    const yi = y[i];
    if (xi === null || yi === null || !Number.isFinite(xi) || !Number.isFinite(yi)) return evenlySpaced(n, maxPoints);
    xs[i] = xi;
    ys[i] = yi;
  }
  const anchors = hullFirst ? upperHull(xs, ys) : [0, n - 1];
  const kept =
    anchors.length > maxPoints
      ? greedyInsert(xs, ys, [0, anchors.length - 1], maxPoints, Int32Array.from(anchors))
      : greedyInsert(xs, ys, anchors, maxPoints, null);
  return Int32Array.from(kept).sort();
}

/** Upper convex hull by Andrew's monotone chain; the points arrive sorted by x (a ROC curve is). */
function upperHull(xs: Float64Array, ys: Float64Array): number[] {
  const hull: number[] = [];
  for (let i = 0; i < xs.length; i++) {
    while (hull.length >= 2) {
      const a = hull[hull.length - 2];
      const b = hull[hull.length - 1];
      const cross = (xs[b] - xs[a]) * (ys[i] - ys[a]) - (ys[b] - ys[a]) * (xs[i] - xs[a]);
      if (cross < 0) break;
      hull.pop();
    }
    hull.push(i);
  }
  return hull;
}

/**
 * Starting from the `start` positions (ascending), adds the candidate farthest from its
 * current chord until `budget` points are kept or every remaining point lies on the kept
 * polyline. Candidates are positions 0..n−1, or the entries of `among` when given (then
 * positions index into `among` and the result is mapped back to point indices).
 */
function greedyInsert(xs: Float64Array, ys: Float64Array, start: readonly number[], budget: number, among: Int32Array | null): number[] {
  const at = (r: number): number => (among === null ? r : among[r]);
  const kept = [...start];
  // every added point closes one segment and opens at most two
  const capacity = start.length + 2 * budget + 2;
  const heap = new MaxHeap(capacity);
  const segmentFrom = new Int32Array(capacity);
  const segmentTo = new Int32Array(capacity);
  let segments = 0;
  const addSegment = (lo: number, hi: number): void => {
    if (hi - lo < 2) return;
    const ax = xs[at(lo)];
    const ay = ys[at(lo)];
    const dx = xs[at(hi)] - ax;
    const dy = ys[at(hi)] - ay;
    const length = Math.hypot(dx, dy);
    let best = -1;
    let bestDistance = 0;
    for (let r = lo + 1; r < hi; r++) {
      const px = xs[at(r)] - ax;
      const py = ys[at(r)] - ay;
      const distance = length === 0 ? Math.hypot(px, py) : Math.abs(dx * py - dy * px) / length;
      if (distance > bestDistance) {
        bestDistance = distance;
        best = r;
      }
    }
    if (best < 0) return;
    segmentFrom[segments] = lo;
    segmentTo[segments] = hi;
    heap.push(bestDistance, segments, best);
    segments++;
  };
  for (let s = 0; s + 1 < start.length; s++) addSegment(start[s], start[s + 1]);
  while (kept.length < budget && heap.size > 0) {
    const { id, point } = heap.pop();
    kept.push(point);
    addSegment(segmentFrom[id], point);
    addSegment(point, segmentTo[id]);
  }
  return kept.map(at);
}

/** Max-heap of (distance, segment id, farthest point) on typed arrays. */
class MaxHeap {
  private readonly keys: Float64Array;
  private readonly ids: Int32Array;
  private readonly points: Int32Array;
  size = 0;

  constructor(capacity: number) {
    this.keys = new Float64Array(capacity);
    this.ids = new Int32Array(capacity);
    this.points = new Int32Array(capacity);
  }

  push(key: number, id: number, point: number): void {
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.keys[parent] >= key) break;
      this.move(parent, i);
      i = parent;
    }
    this.keys[i] = key;
    this.ids[i] = id;
    this.points[i] = point;
  }

  pop(): { id: number; point: number } {
    const top = { id: this.ids[0], point: this.points[0] };
    const last = --this.size;
    const key = this.keys[last];
    const id = this.ids[last];
    const point = this.points[last];
    let i = 0;
    while (true) {
      let child = 2 * i + 1;
      if (child >= this.size) break;
      if (child + 1 < this.size && this.keys[child + 1] > this.keys[child]) child++;
      if (this.keys[child] <= key) break;
      this.move(child, i);
      i = child;
    }
    this.keys[i] = key;
    this.ids[i] = id;
    this.points[i] = point;
    return top;
  }

  private move(from: number, to: number): void {
    this.keys[to] = this.keys[from];
    this.ids[to] = this.ids[from];
    this.points[to] = this.points[from];
  }
}

function evenlySpaced(n: number, m: number): Int32Array {
  const out = new Int32Array(m);
  for (let r = 0; r < m; r++) out[r] = Math.round((r * (n - 1)) / (m - 1));
  return out;
}

function pick(values: ArrayLike<Coord>, keep: Int32Array): MetricValue[] {
  const out: MetricValue[] = [];
  for (const i of keep) if (i < values.length) out.push(values[i] === null || !Number.isFinite(values[i] as number) ? null : (values[i] as number));
  return out;
}
