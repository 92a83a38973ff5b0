/** The first two principal components of a small row-major table (power iteration with deflation), for 2-D cluster scatters. */
export function project2d(rows: number[][]): [number, number][] {
  const n = rows.length, d = rows[0]?.length ?? 0;
  if (d <= 2) return rows.map((r) => [r[0] ?? 0, r[1] ?? 0]);
  const mean = Array.from({ length: d }, (_, j) => rows.reduce((a, r) => a + r[j], 0) / n);
  const sd = Array.from({ length: d }, (_, j) => Math.sqrt(rows.reduce((a, r) => a + (r[j] - mean[j]) ** 2, 0) / n) || 1);
  const z = rows.map((r) => r.map((v, j) => (v - mean[j]) / sd[j]));
  const cov = Array.from({ length: d }, (_, a) => Array.from({ length: d }, (_, b) => z.reduce((s, r) => s + r[a] * r[b], 0) / n));
  const components: number[][] = [];
  for (let c = 0; c < 2; c++) {
    let v = Array.from({ length: d }, (_, j) => 1 / Math.sqrt(d) + j * 1e-3);
    for (let it = 0; it < 200; it++) {
      const w = cov.map((row) => row.reduce((s, x, j) => s + x * v[j], 0));
      const norm = Math.hypot(...w) || 1;
      v = w.map((x) => x / norm);
    }
    const lambda = cov.map((row) => row.reduce((s, x, j) => s + x * v[j], 0)).reduce((s, x, j) => s + x * v[j], 0);
    for (let a = 0; a < d; a++) for (let b = 0; b < d; b++) cov[a][b] -= lambda * v[a] * v[b];
    components.push(v);
  }
  return z.map((r) => [r.reduce((s, x, j) => s + x * components[0][j], 0), r.reduce((s, x, j) => s + x * components[1][j], 0)]);
}
