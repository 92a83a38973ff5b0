/** Per-iteration series (MLP loss, boosting train/validation loss) with uPlot: x is the iteration. */
import uPlot from "../vendor/uplot.js";
import { colour } from "./palette.js";

export function lineChart(series: { name: string; values: (number | null)[] }[], options: { title: string; yLabel: string; width?: number }): HTMLElement {
  const el = document.createElement("figure");
  el.className = "curve";
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", options.title);
  const n = Math.max(...series.map((s) => s.values.length));
  const x = Array.from({ length: n }, (_, i) => i + 1);
  const data = [x, ...series.map((s) => x.map((_, i) => s.values[i] ?? null))] as unknown as uPlot.AlignedData;
  const width = options.width ?? Math.max(260, Math.min(520, window.innerWidth - 56));
  new uPlot(
    {
      title: options.title,
      width,
      height: Math.round(width * 0.55),
      scales: { x: { time: false } },
      legend: { live: false },
      // Loss changes in the third or fourth digit: label ticks with enough of them.
      axes: [{ label: "iteration" }, { label: options.yLabel, size: 64, values: (_u, splits) => splits.map((v) => v.toPrecision(4)) }],
      series: [{ label: "iteration" }, ...series.map((s, i) => ({ label: s.name, stroke: colour(i), width: 2, points: { show: false } }))],
    },
    data,
    el,
  );
  return el;
}
