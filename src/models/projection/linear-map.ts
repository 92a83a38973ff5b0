/**
 * A linear map of centred numeric columns: what the supervised projections (lda_projection,
 * nca_projection) and their preprocessing steps (lda_projection, nca, lmnn) apply. One copy,
 * so a model and the step with the same fit give the same numbers bit for bit.
 */

/**
 * d outputs, outputs[k][i] = Σ_a (x_a[i] − centre[a]) · w(a, k), summed over a in order.
 * `layout` says where w(a, k) sits: "by_input" at a·d + k (LDA's p × d scalings),
 * "by_output" at k·p + a (a learned map's d × p components). A missing cell (NaN)
 * counts as the centre of its column: it contributes nothing.
 */
export function projectCentred(inputs: readonly Float64Array[], centre: ArrayLike<number>, weights: ArrayLike<number>, d: number, n: number, layout: "by_input" | "by_output"): Float64Array[] {
  const p = inputs.length;
  const outputs = Array.from({ length: d }, () => new Float64Array(n));
  inputs.forEach((x, a) => {
    const shift = centre[a];
    for (let k = 0; k < d; k++) {
      const w = layout === "by_input" ? weights[a * d + k] : weights[k * p + a];
      const out = outputs[k];
      for (let i = 0; i < n; i++) {
        const v = x[i] - shift;
        if (v === v) out[i] += v * w;
      }
    }
  });
  return outputs;
}

/** Row-major n × p copy of the columns, centred by `mean`. */
export function centredRows(columns: readonly Float64Array[], mean: Float64Array, n: number): Float64Array {
  const p = columns.length;
  const out = new Float64Array(n * p);
  for (let j = 0; j < p; j++) {
    const c = columns[j];
    const m = mean[j];
    for (let i = 0; i < n; i++) out[i * p + j] = c[i] - m;
  }
  return out;
}
