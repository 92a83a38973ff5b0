/** Point plots (SVG): the OPTICS reachability plot, 2-D cluster scatters, score-vs-parameter and folds' spread. */
import { fmt, s } from "../dom.js";
import { colour } from "./palette.js";

interface Frame {
  width: number;
  height: number;
  pad: { l: number; r: number; t: number; b: number };
}

function axes(svg: SVGSVGElement, f: Frame, xRange: [number, number], yRange: [number, number], xLabel: string, yLabel: string): void {
  const { pad, width, height } = f;
  svg.append(
    s("line", { x1: pad.l, x2: width - pad.r, y1: height - pad.b, y2: height - pad.b, class: "axis" }),
    s("line", { x1: pad.l, x2: pad.l, y1: pad.t, y2: height - pad.b, class: "axis" }),
    s("text", { x: (pad.l + width - pad.r) / 2, y: height - 4, "text-anchor": "middle", class: "axis-label" }, xLabel),
    s("text", { x: 12, y: (pad.t + height - pad.b) / 2, "text-anchor": "middle", class: "axis-label", transform: `rotate(-90 12 ${(pad.t + height - pad.b) / 2})` }, yLabel),
    s("text", { x: pad.l, y: height - pad.b + 14, "text-anchor": "middle", class: "value" }, fmt(xRange[0], 2)),
    s("text", { x: width - pad.r, y: height - pad.b + 14, "text-anchor": "end", class: "value" }, fmt(xRange[1], 2)),
    s("text", { x: pad.l - 4, y: height - pad.b, "text-anchor": "end", class: "value" }, fmt(yRange[0], 2)),
    s("text", { x: pad.l - 4, y: pad.t + 8, "text-anchor": "end", class: "value" }, fmt(yRange[1], 2)),
  );
}

/** The values' extent with 5 % to spare each side, so no point sits on an axis. */
function range(values: number[]): [number, number] {
  const lo = Math.min(...values), hi = Math.max(...values);
  if (lo === hi) return [lo - 1, hi + 1];
  const pad = (hi - lo) * 0.05;
  return [lo - pad, hi + pad];
}

function frame(width = 560, height = 300): Frame {
  return { width, height, pad: { l: 56, r: 12, t: 10, b: 36 } };
}

function svgFor(f: Frame, title: string): SVGSVGElement {
  const svg = s("svg", { class: "chart", viewBox: `0 0 ${f.width} ${f.height}`, width: f.width, height: f.height, role: "img", "aria-label": title });
  svg.append(s("title", {}, title));
  return svg;
}

/** Reachability plot: one bar per row in OPTICS order; ∞ (null) drawn full height and hatched. */
export function reachabilityPlot(reachability: (number | null)[], title: string): SVGSVGElement {
  const f = frame(640, 260);
  const svg = svgFor(f, title);
  const finite = reachability.filter((r): r is number => r !== null);
  const top = (finite.length ? Math.max(...finite) : 1) * 1.1;
  axes(svg, f, [0, reachability.length], [0, top], "OPTICS order", "reachability");
  const w = (f.width - f.pad.l - f.pad.r) / Math.max(1, reachability.length);
  const plotH = f.height - f.pad.t - f.pad.b;
  reachability.forEach((r, i) => {
    const hgt = r === null ? plotH : (r / top) * plotH;
    svg.append(s("rect", { x: f.pad.l + i * w, y: f.height - f.pad.b - hgt, width: Math.max(1, w - 1), height: hgt, class: r === null ? "bar infinite" : "bar" }));
  });
  return svg;
}

/** Scatter of labelled points (label −1, noise, in grey). */
export function scatter(points: { x: number; y: number; label: number }[], options: { title: string; xLabel: string; yLabel: string }): SVGSVGElement {
  const f = frame(480, 360);
  const svg = svgFor(f, options.title);
  const xr = range(points.map((p) => p.x)), yr = range(points.map((p) => p.y));
  axes(svg, f, xr, yr, options.xLabel, options.yLabel);
  const px = (v: number) => f.pad.l + ((v - xr[0]) / (xr[1] - xr[0])) * (f.width - f.pad.l - f.pad.r);
  const py = (v: number) => f.height - f.pad.b - ((v - yr[0]) / (yr[1] - yr[0])) * (f.height - f.pad.t - f.pad.b);
  for (const p of points) svg.append(s("circle", { cx: px(p.x), cy: py(p.y), r: 4, fill: colour(p.label), class: "point" }, s("title", {}, `cluster ${p.label}`)));
  return svg;
}

/** Mean score with ±1 std bars against a parameter's values (numeric axis), searches' score-vs-parameter plot. */
export function scoreVsParameter(points: { x: number; mean: number; std: number }[], options: { title: string; xLabel: string; yLabel: string }): SVGSVGElement {
  const f = frame();
  const svg = svgFor(f, options.title);
  const xr = range(points.map((p) => p.x));
  const yr = range(points.flatMap((p) => [p.mean - p.std, p.mean + p.std]));
  axes(svg, f, xr, yr, options.xLabel, options.yLabel);
  const px = (v: number) => f.pad.l + 8 + ((v - xr[0]) / (xr[1] - xr[0])) * (f.width - f.pad.l - f.pad.r - 16);
  const py = (v: number) => f.height - f.pad.b - ((v - yr[0]) / (yr[1] - yr[0])) * (f.height - f.pad.t - f.pad.b);
  for (const p of points) {
    svg.append(
      s("line", { x1: px(p.x), x2: px(p.x), y1: py(p.mean - p.std), y2: py(p.mean + p.std), class: "errorbar" }),
      s("circle", { cx: px(p.x), cy: py(p.mean), r: 4, class: "point", fill: colour(0) }, s("title", {}, `${fmt(p.x)}: ${fmt(p.mean)} ± ${fmt(p.std)}`)),
    );
  }
  return svg;
}

/** Folds' spread: one row per metric, a dot per fold and a tick at the mean. */
export function foldSpread(rows: { metric: string; values: number[] }[], title: string): SVGSVGElement {
  const rowH = 26;
  const f = { width: 560, height: rows.length * rowH + 30, pad: { l: 140, r: 20, t: 6, b: 24 } };
  const svg = svgFor(f, title);
  const all = rows.flatMap((r) => r.values);
  const xr: [number, number] = [Math.min(0, ...all), Math.max(1, ...all)];
  const px = (v: number) => f.pad.l + ((v - xr[0]) / (xr[1] - xr[0])) * (f.width - f.pad.l - f.pad.r);
  rows.forEach((r, i) => {
    const y = f.pad.t + i * rowH + rowH / 2;
    const mean = r.values.reduce((a, b) => a + b, 0) / r.values.length;
    svg.append(
      s("text", { x: f.pad.l - 8, y: y + 4, "text-anchor": "end", class: "label" }, r.metric),
      s("line", { x1: px(xr[0]), x2: px(xr[1]), y1: y, y2: y, class: "gridline" }),
      s("line", { x1: px(mean), x2: px(mean), y1: y - 9, y2: y + 9, class: "mean-tick" }),
      ...r.values.map((v, k) => s("circle", { cx: px(v), cy: y, r: 4, class: "point", fill: colour(0) }, s("title", {}, `fold ${k + 1}: ${fmt(v)}`))),
    );
  });
  const yAxis = f.height - f.pad.b + 4;
  svg.append(
    s("text", { x: px(xr[0]), y: yAxis + 12, "text-anchor": "middle", class: "value" }, fmt(xr[0], 2)),
    s("text", { x: px(xr[1]), y: yAxis + 12, "text-anchor": "middle", class: "value" }, fmt(xr[1], 2)),
  );
  return svg;
}
