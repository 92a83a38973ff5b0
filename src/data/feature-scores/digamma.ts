/** The digamma function ψ(x) for x > 0: recurrence up to x ≥ 10, then the asymptotic series. */
export function digamma(x: number): number {
  let shift = 0;
  let v = x;
  while (v < 10) {
    shift -= 1 / v;
    v += 1;
  }
  const inv2 = 1 / (v * v);
  const series = inv2 * (1 / 12 - inv2 * (1 / 120 - inv2 * (1 / 252 - inv2 * (1 / 240 - inv2 * (1 / 132)))));
  return shift + Math.log(v) - 0.5 / v - series;
}
