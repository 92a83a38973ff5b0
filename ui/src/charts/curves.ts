/**
 * ROC and precision–recall curves with uPlot (canvas), as scikit-learn's RocCurveDisplay and
 * PrecisionRecallDisplay draw them: the arrays of the evaluation's `curves`, one series per
 * evaluation, plus an optional marked point (the threshold slider's, or the break-even point).
 */
import uPlot from "../vendor/uplot.js";
import { colour } from "./palette.js";

export interface Curve {
  name: string;
  x: number[];
  y: number[];
}

export interface CurveChart {
  el: HTMLElement;
  mark(point: { x: number; y: number; label: string } | null): void;
}

/** uPlot wants x ascending: PR curves come recall-descending, so sort by x (stable, keeping ties in order). */
function ascending(c: Curve): [number[], number[]] {
  const order = c.x.map((_, i) => i).sort((a, b) => c.x[a] - c.x[b] || 0);
  return [order.map((i) => c.x[i]), order.map((i) => c.y[i])];
}

export function curveChart(curves: Curve[], options: { title: string; xLabel: string; yLabel: string; diagonal?: boolean; width?: number }): CurveChart {
  const el = document.createElement("figure");
  el.className = "curve";
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", options.title);
  const tables: uPlot.AlignedData[] = curves.map((c) => ascending(c) as unknown as uPlot.AlignedData);
  if (options.diagonal) tables.push([[0, 1], [0, 1]] as unknown as uPlot.AlignedData);
  const data = uPlot.join(tables);
  let marked: { x: number; y: number; label: string } | null = null;
  const series: uPlot.Series[] = [{ label: options.xLabel }];
  curves.forEach((c, i) => series.push({ label: c.name, stroke: colour(i), width: 2, spanGaps: true, points: { show: false } }));
  if (options.diagonal) series.push({ label: "chance", stroke: "#aaaaaa", dash: [4, 4], width: 1, spanGaps: true, points: { show: false } });
  // Fits a phone: the figure never outgrows the viewport less the page's margins.
  const width = options.width ?? Math.max(260, Math.min(420, window.innerWidth - 56));
  const plot = new uPlot(
    {
      title: options.title,
      width,
      height: Math.round(width * 0.8),
      scales: { x: { time: false, range: [0, 1] }, y: { range: [0, 1] } },
      axes: [{ label: options.xLabel }, { label: options.yLabel }],
      series,
      cursor: { drag: { x: false, y: false } },
      legend: { live: false },
      hooks: {
        draw: [
          (u) => {
            if (!marked) return;
            const ctx = u.ctx;
            const px = u.valToPos(marked.x, "x", true);
            const py = u.valToPos(marked.y, "y", true);
            ctx.save();
            ctx.fillStyle = "#111111";
            ctx.beginPath();
            ctx.arc(px, py, 5 * devicePixelRatio, 0, 2 * Math.PI);
            ctx.fill();
            ctx.font = `${12 * devicePixelRatio}px sans-serif`;
            ctx.fillText(marked.label, px + 8 * devicePixelRatio, py - 6 * devicePixelRatio);
            ctx.restore();
          },
        ],
      },
    },
    data,
    el,
  );
  return {
    el,
    mark(point) {
      marked = point;
      plot.redraw(false, false);
    },
  };
}
