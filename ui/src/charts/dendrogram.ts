/**
 * Dendrogram (SVG) from AGNES/DIANA's explain: `merges` rows [a, b, height, size] as scipy's
 * linkage matrix, merge i creating cluster n_leaves + i. When explain listed only the last
 * merges (merges_truncated), the clusters formed before them are drawn as leaves.
 */
import { fmt, s } from "../dom.js";

export function dendrogram(merges: number[][], nLeaves: number, firstListed: number, options: { title: string; width?: number }): SVGSVGElement {
  const width = options.width ?? 640;
  const height = 300;
  const pad = { l: 48, r: 10, t: 10, b: 24 };
  const children = new Map<number, [number, number]>();
  const heightOf = new Map<number, number>();
  merges.forEach(([a, b, hgt], i) => {
    const id = nLeaves + firstListed + i;
    children.set(id, [a, b]);
    heightOf.set(id, hgt);
  });
  const rootId = nLeaves + firstListed + merges.length - 1;
  // Leaf order from a depth-first walk, so no branches cross.
  const order: number[] = [];
  const walk = (id: number) => {
    const kids = children.get(id);
    if (!kids) order.push(id);
    else kids.forEach(walk);
  };
  if (merges.length > 0) walk(rootId);
  const maxH = Math.max(...merges.map((m) => m[2]), 1e-12);
  const xStep = (width - pad.l - pad.r) / Math.max(1, order.length);
  const y = (v: number) => pad.t + (1 - v / maxH) * (height - pad.t - pad.b);
  const pos = new Map<number, { x: number; y: number }>();
  order.forEach((id, i) => pos.set(id, { x: pad.l + (i + 0.5) * xStep, y: y(0) }));
  const svg = s("svg", { class: "chart dendrogram", viewBox: `0 0 ${width} ${height}`, width, height, role: "img", "aria-label": options.title });
  svg.append(s("title", {}, options.title));
  const place = (id: number): { x: number; y: number } => {
    const known = pos.get(id);
    if (known) return known;
    const [a, b] = children.get(id)!;
    const pa = place(a), pb = place(b);
    const me = { x: (pa.x + pb.x) / 2, y: y(heightOf.get(id)!) };
    svg.append(s("path", { d: `M${pa.x},${pa.y} V${me.y} H${pb.x} V${pb.y}`, class: "edge" }));
    pos.set(id, me);
    return me;
  };
  if (merges.length > 0) place(rootId);
  for (const t of [0, 0.5, 1]) {
    svg.append(s("text", { x: pad.l - 6, y: y(t * maxH) + 4, "text-anchor": "end", class: "value" }, fmt(t * maxH, 2)));
  }
  svg.append(s("line", { x1: pad.l, x2: pad.l, y1: pad.t, y2: height - pad.b, class: "axis" }));
  return svg;
}
