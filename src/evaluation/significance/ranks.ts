/** Ranks 1..k within one data set, rank 1 the best; tied values share their average rank. */
export function averageRanks(values: ArrayLike<number>, higherIsBetter: boolean): Float64Array {
  const k = values.length;
  const order = Array.from({ length: k }, (_, i) => i).sort((a, b) =>
    higherIsBetter ? values[b] - values[a] : values[a] - values[b],
  );
  const ranks = new Float64Array(k);
  let start = 0;
  while (start < k) {
    let end = start + 1;
    while (end < k && values[order[end]] === values[order[start]]) end++;
    const shared = (start + 1 + end) / 2;
    for (let r = start; r < end; r++) ranks[order[r]] = shared;
    start = end;
  }
  return ranks;
}

/** Σ (t³ − t) over the groups of tied values: the tie term of the Friedman correction. */
export function tieTerm(values: ArrayLike<number>): number {
  const counts = new Map<number, number>();
  for (let i = 0; i < values.length; i++) counts.set(values[i], (counts.get(values[i]) ?? 0) + 1);
  let s = 0;
  for (const t of counts.values()) s += t * t * t - t;
  return s;
}
