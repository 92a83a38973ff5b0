/**
 * The k best neighbours of each query, kept as one bounded max-heap per query in
 * two flat arrays (query q owns slots [q·k, q·k + k)), as scikit-learn's
 * NeighborsHeap does. Order is lexicographic on (reduced distance, row index):
 * among rows at the same distance the lower index is nearer. That makes the
 * result a function of the data alone — every search strategy that sees the same
 * distances returns the same rows — and is the documented tie rule of the index.
 */
export class NeighborHeap {
  readonly dist: Float64Array;
  readonly idx: Int32Array;

  constructor(
    readonly queries: number,
    readonly k: number,
  ) {
    this.dist = new Float64Array(queries * k).fill(Infinity);
    this.idx = new Int32Array(queries * k).fill(0x7fffffff);
  }

  /** The current k-th best reduced distance of query q (Infinity until k rows are in). */
  largest(q: number): number {
    return this.dist[q * this.k];
  }

  /** Offers row `row` at reduced distance `r` to query q; kept when it beats the current k-th. */
  push(q: number, r: number, row: number): void {
    const k = this.k;
    const off = q * k;
    const dist = this.dist;
    const idx = this.idx;
    const top = dist[off];
    if (r > top || (r === top && row >= idx[off])) return;
    // Sift the new entry down from the root, replacing the largest.
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= k) break;
      const rr = l + 1;
      let c = l;
      if (rr < k && (dist[off + rr] > dist[off + l] || (dist[off + rr] === dist[off + l] && idx[off + rr] > idx[off + l]))) c = rr;
      const dc = dist[off + c];
      if (dc < r || (dc === r && idx[off + c] < row)) break;
      dist[off + i] = dc;
      idx[off + i] = idx[off + c];
      i = c;
    }
    dist[off + i] = r;
    idx[off + i] = row;
  }

  /** Sorts each query's slots ascending by (distance, index), in place. */
  sort(): void {
    const k = this.k;
    const order = new Int32Array(k);
    const d = new Float64Array(k);
    const ix = new Int32Array(k);
    for (let q = 0; q < this.queries; q++) {
      const off = q * k;
      for (let i = 0; i < k; i++) order[i] = i;
      if (k > 32) {
        order.sort((a, b) => this.dist[off + a] - this.dist[off + b] || this.idx[off + a] - this.idx[off + b]);
      } else {
        insertionSort(order, this.dist, this.idx, off);
      }
      for (let i = 0; i < k; i++) {
        d[i] = this.dist[off + order[i]];
        ix[i] = this.idx[off + order[i]];
      }
      this.dist.set(d, off);
      this.idx.set(ix, off);
    }
  }
}

/** Small k: insertion sort of slot numbers on (distance, index). */
function insertionSort(order: Int32Array, dist: Float64Array, idx: Int32Array, off: number): void {
  const k = order.length;
  for (let i = 1; i < k; i++) {
    const o = order[i];
    const dv = dist[off + o];
    const iv = idx[off + o];
    let j = i - 1;
    while (j >= 0) {
      const p = order[j];
      const dp = dist[off + p];
      if (dp < dv || (dp === dv && idx[off + p] < iv)) break;
      order[j + 1] = p;
      j--;
    }
    order[j + 1] = o;
  }
}
