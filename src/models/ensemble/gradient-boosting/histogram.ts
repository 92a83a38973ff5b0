/**
 * Per-bin sums of gradients, hessians and row counts for the rows of one node
 * (scikit-learn's `histogram.pyx`). Layout: feature f's bin b lives at
 * ((f · stride) + b) · 3 as [gradient, hessian, count], stride = maxBins + 1 (the
 * last bin of every feature holds its missing values).
 *
 * The grower builds the histogram of the smaller child only and gets its sibling
 * as parent − child (`subtractInto`), so each level costs the smaller half of the rows.
 * `naiveHistogram` is the plain definition, kept for the property test that the
 * fast path (gathered gradients, constant-hessian shortcut, subtraction) equals it.
 */

export const SLOTS = 3;

export function histogramSize(features: number, maxBins: number): number {
  return features * (maxBins + 1) * SLOTS;
}

/**
 * Sets `hist` to the sums over rows rows[start..end) for the features in `features`. Only the
 * nBins[f] real bins and the missing bin of each feature are written (and ever read): wide
 * strides of narrow features cost nothing.
 * `og`/`oh` are the gradients/hessians already gathered in row order (og[i] belongs to rows[start + i]);
 * oh null means every hessian equals `hConst`, so hessian sums are counts × hConst.
 */
export function buildHistogram(
  hist: Float64Array,
  bins: readonly Uint8Array[],
  maxBins: number,
  nBins: Int32Array,
  features: Int32Array,
  rows: Int32Array,
  start: number,
  end: number,
  og: Float64Array,
  oh: Float64Array | null,
  hConst: number,
): void {
  const stride = maxBins + 1;
  const m = end - start;
  for (let q = 0; q < features.length; q++) {
    const f = features[q];
    const col = bins[f];
    const base = f * stride * SLOTS;
    hist.fill(0, base, base + nBins[f] * SLOTS);
    hist.fill(0, base + maxBins * SLOTS, base + stride * SLOTS);
    if (oh) {
      for (let i = 0; i < m; i++) {
        const k = base + col[rows[start + i]] * SLOTS;
        hist[k] += og[i];
        hist[k + 1] += oh[i];
        hist[k + 2] += 1;
      }
    } else {
      for (let i = 0; i < m; i++) {
        const k = base + col[rows[start + i]] * SLOTS;
        hist[k] += og[i];
        hist[k + 2] += 1;
      }
      for (let b = 0; b < nBins[f]; b++) hist[base + b * SLOTS + 1] = hist[base + b * SLOTS + 2] * hConst;
      hist[base + maxBins * SLOTS + 1] = hist[base + maxBins * SLOTS + 2] * hConst;
    }
  }
}

/** buildHistogram over every row 0..n-1 in order (rows[i] = i, gradients not gathered): the root of an unsampled tree. */
export function buildRootHistogram(hist: Float64Array, bins: readonly Uint8Array[], maxBins: number, nBins: Int32Array, features: Int32Array, g: Float64Array, h: Float64Array | null, hConst: number): void {
  const stride = maxBins + 1;
  const n = g.length;
  for (let q = 0; q < features.length; q++) {
    const f = features[q];
    const col = bins[f];
    const base = f * stride * SLOTS;
    hist.fill(0, base, base + nBins[f] * SLOTS);
    hist.fill(0, base + maxBins * SLOTS, base + stride * SLOTS);
    if (h) {
      for (let i = 0; i < n; i++) {
        const k = base + col[i] * SLOTS;
        hist[k] += g[i];
        hist[k + 1] += h[i];
        hist[k + 2] += 1;
      }
    } else {
      for (let i = 0; i < n; i++) {
        const k = base + col[i] * SLOTS;
        hist[k] += g[i];
        hist[k + 2] += 1;
      }
      for (let b = 0; b < nBins[f]; b++) hist[base + b * SLOTS + 1] = hist[base + b * SLOTS + 2] * hConst;
      hist[base + maxBins * SLOTS + 1] = hist[base + maxBins * SLOTS + 2] * hConst;
    }
  }
}

/** parent ← parent − child over the given features' used bins: the parent's buffer becomes the sibling's histogram. */
export function subtractInto(parent: Float64Array, child: Float64Array, maxBins: number, nBins: Int32Array, features: Int32Array): void {
  const width = (maxBins + 1) * SLOTS;
  for (let q = 0; q < features.length; q++) {
    const base = features[q] * width;
    for (let k = base; k < base + nBins[features[q]] * SLOTS; k++) parent[k] -= child[k];
    for (let k = base + maxBins * SLOTS; k < base + width; k++) parent[k] -= child[k];
  }
}

/** The definition: one pass over the rows per feature, reading gradients by row id. */
export function naiveHistogram(bins: readonly Uint8Array[], maxBins: number, rows: ArrayLike<number>, g: ArrayLike<number>, h: ArrayLike<number>): Float64Array {
  const stride = maxBins + 1;
  const hist = new Float64Array(histogramSize(bins.length, maxBins));
  for (let f = 0; f < bins.length; f++) {
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      const k = (f * stride + bins[f][r]) * SLOTS;
      hist[k] += g[r];
      hist[k + 1] += h[r];
      hist[k + 2] += 1;
    }
  }
  return hist;
}

/** Reuses histogram buffers across nodes and trees (scikit-learn's `_histogram_pool.py`). */
export class HistogramPool {
  private readonly free: Float64Array[] = [];
  constructor(private readonly size: number) {}

  /** A buffer with stale contents: buildHistogram clears what it uses. */
  acquire(): Float64Array {
    return this.free.pop() ?? new Float64Array(this.size);
  }

  release(h: Float64Array): void {
    this.free.push(h);
  }
}
