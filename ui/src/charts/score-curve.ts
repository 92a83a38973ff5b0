/**
 * Learning / validation curve (SVG), as scikit-learn's LearningCurveDisplay and
 * ValidationCurveDisplay draw them: the validation score with its ±std band and the training
 * score against x. It only draws the arrays it is given: a null score is a gap in its line.
 * x is numeric (train sizes, a numeric parameter) or, with `labels`, evenly spaced ticks.
 */
import { fmt, s } from "../dom.js";
import { colour } from "./palette.js";

export interface ScoreCurveData {
  /** Positions on the x axis, ascending. */
  x: number[];
  /** Tick labels, one per x; given, x is read as evenly spaced categories. */
  labels?: string[];
  validation: (number | null)[];
  validationStd: (number | null)[];
  training: (number | null)[];
}

const W = 560, H = 320;
const PAD = { l: 56, r: 16, t: 30, b: 44 };

/** Runs of consecutive indices where keep(i) holds: a gap ends a run. */
function runs(n: number, keep: (i: number) => boolean): number[][] {
  const out: number[][] = [];
  let cur: number[] = [];
  for (let i = 0; i < n; i++) {
    if (keep(i)) cur.push(i);
    else if (cur.length) {
      out.push(cur);
      cur = [];
    }
  }
  if (cur.length) out.push(cur);
  return out;
}

export function scoreCurve(d: ScoreCurveData, options: { title: string; xLabel: string; yLabel: string }): SVGSVGElement {
  const n = d.x.length;
  const svg = s("svg", { class: "chart score-curve", viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img", "aria-label": options.title, "data-points": n });
  svg.append(s("title", {}, options.title));
  const ys: number[] = [];
  d.validation.forEach((v, i) => {
    if (v === null) return;
    const sd = d.validationStd[i] ?? 0;
    ys.push(v - sd, v + sd);
  });
  for (const t of d.training) if (t !== null) ys.push(t);
  const lo = ys.length ? Math.min(...ys) : 0, hi = ys.length ? Math.max(...ys) : 1;
  const spare = hi - lo > 0 ? (hi - lo) * 0.08 : 0.05;
  const y0 = lo - spare, y1 = hi + spare;
  const xs = d.labels ? d.x.map((_, i) => i) : d.x;
  const x0 = n ? Math.min(...xs) : 0, x1 = n ? Math.max(...xs) : 1;
  const plotW = W - PAD.l - PAD.r - 24, plotH = H - PAD.t - PAD.b;
  const px = (v: number) => PAD.l + 12 + (x1 === x0 ? plotW / 2 : ((v - x0) / (x1 - x0)) * plotW);
  const py = (v: number) => PAD.t + (1 - (v - y0) / (y1 - y0)) * plotH;

  svg.append(
    s("line", { x1: PAD.l, x2: W - PAD.r, y1: H - PAD.b, y2: H - PAD.b, class: "axis" }),
    s("line", { x1: PAD.l, x2: PAD.l, y1: PAD.t, y2: H - PAD.b, class: "axis" }),
    s("text", { x: (PAD.l + W - PAD.r) / 2, y: H - 4, "text-anchor": "middle", class: "axis-label" }, options.xLabel),
    s("text", { x: 12, y: PAD.t + plotH / 2, "text-anchor": "middle", class: "axis-label", transform: `rotate(-90 12 ${PAD.t + plotH / 2})` }, options.yLabel),
  );
  for (const v of [y0, (y0 + y1) / 2, y1]) {
    svg.append(s("line", { x1: PAD.l, x2: W - PAD.r, y1: py(v), y2: py(v), class: "gridline" }), s("text", { x: PAD.l - 4, y: py(v) + 4, "text-anchor": "end", class: "value" }, fmt(v, 3)));
  }
  // Every x gets a tick (curves have a handful of points); a label for categories and numbers alike.
  xs.forEach((v, i) => {
    svg.append(
      s("line", { x1: px(v), x2: px(v), y1: H - PAD.b, y2: H - PAD.b + 4, class: "axis" }),
      s("text", { x: px(v), y: H - PAD.b + 16, "text-anchor": "middle", class: "value" }, d.labels ? d.labels[i] : fmt(d.x[i], 2)),
    );
  });

  const band = colour(0);
  for (const run of runs(n, (i) => d.validation[i] !== null && d.validationStd[i] !== null)) {
    const upper = run.map((i) => `${px(xs[i])},${py(d.validation[i]! + d.validationStd[i]!)}`);
    const lower = run.map((i) => `${px(xs[i])},${py(d.validation[i]! - d.validationStd[i]!)}`).reverse();
    svg.append(s("polygon", { points: [...upper, ...lower].join(" "), fill: band, "fill-opacity": 0.18, stroke: "none", class: "std-band" }));
  }
  const line = (values: (number | null)[], cls: string, i: number, name: string) => {
    for (const run of runs(n, (k) => values[k] !== null)) {
      svg.append(s("polyline", { points: run.map((k) => `${px(xs[k])},${py(values[k]!)}`).join(" "), fill: "none", stroke: colour(i), "stroke-width": 2, class: `line ${cls}` }));
    }
    values.forEach((v, k) => {
      if (v === null) return;
      svg.append(s("circle", { cx: px(xs[k]), cy: py(v), r: 4, fill: colour(i), class: `point ${cls}` }, s("title", {}, `${name} at ${d.labels ? d.labels[k] : fmt(d.x[k])}: ${fmt(v)}`)));
    });
  };
  line(d.training, "training", 1, "training score");
  line(d.validation, "validation", 0, "validation score");
  // Legend above the plot, so it never hides a point.
  [["validation score (± std)", 0], ["training score", 1]].forEach(([label, i], k) => {
    const x = PAD.l + k * 190;
    svg.append(s("rect", { x, y: 8, width: 12, height: 4, fill: colour(i as number) }), s("text", { x: x + 18, y: 14, class: "label" }, label as string));
  });
  return svg;
}
