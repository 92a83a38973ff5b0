/** Horizontal bar chart (SVG) of labelled values, negative ones to the left of zero: coefficients, importances, feature scores. */
import { fmt, s } from "../dom.js";

export interface Bar {
  label: string;
  value: number;
}

export function barChart(bars: Bar[], options: { title: string; width?: number }): SVGSVGElement {
  const width = options.width ?? 560;
  const rowH = 22;
  const labelW = Math.min(200, Math.max(60, ...bars.map((b) => b.label.length * 8 + 12)));
  const valueW = 64;
  const plotW = width - labelW - valueW;
  const height = bars.length * rowH + 8;
  const lo = Math.min(0, ...bars.map((b) => b.value));
  const hi = Math.max(0, ...bars.map((b) => b.value));
  const span = hi - lo || 1;
  const x = (v: number) => labelW + ((v - lo) / span) * plotW;
  const svg = s("svg", { class: "chart bar-chart", viewBox: `0 0 ${width} ${height}`, width, height, role: "img", "aria-label": options.title });
  svg.append(s("title", {}, options.title));
  bars.forEach((b, i) => {
    const y = 4 + i * rowH;
    const x0 = x(Math.min(0, b.value));
    const w = Math.max(1, Math.abs(x(b.value) - x(0)));
    svg.append(
      s("text", { x: labelW - 6, y: y + 15, "text-anchor": "end", class: "label" }, b.label),
      s("rect", { x: x0, y: y + 3, width: w, height: rowH - 6, class: b.value < 0 ? "bar negative" : "bar" }, s("title", {}, `${b.label}: ${fmt(b.value)}`)),
      s("text", { x: width - valueW + 6, y: y + 15, class: "value" }, fmt(b.value, 3)),
    );
  });
  svg.append(s("line", { x1: x(0), x2: x(0), y1: 0, y2: height, class: "axis" }));
  return svg;
}

/** Bars from an object of feature → value, largest magnitude first. */
export function barsOf(values: Record<string, number | null>, limit = 40): Bar[] {
  return Object.entries(values)
    .filter((e): e is [string, number] => typeof e[1] === "number")
    .map(([label, value]) => ({ label, value }))
    .sort((a, b) => Math.abs(b.value) - Math.abs(a.value))
    .slice(0, limit);
}
