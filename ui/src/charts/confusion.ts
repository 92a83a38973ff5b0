/** Confusion matrix as a heat map: rows actual, columns predicted, each cell shaded by its share of its row. */
import { h } from "../dom.js";

export function confusionHeatmap(labels: string[], matrix: number[][], caption: string): HTMLTableElement {
  const rowSums = matrix.map((r) => r.reduce((a, b) => a + b, 0));
  return h(
    "table",
    { class: "heatmap" },
    h("caption", {}, caption),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "actual \\ predicted"), labels.map((l) => h("th", { scope: "col" }, l)))),
    h(
      "tbody",
      {},
      matrix.map((row, i) =>
        h(
          "tr",
          {},
          h("th", { scope: "row" }, labels[i]),
          row.map((count, j) => {
            const share = rowSums[i] > 0 ? count / rowSums[i] : 0;
            const cell = h("td", { class: share > 0.55 ? "dark" : "", title: `actual ${labels[i]}, predicted ${labels[j]}: ${count}` }, String(count));
            // CSSOM, not a style attribute: allowed under a strict Content-Security-Policy.
            cell.style.backgroundColor = `rgba(31, 119, 180, ${0.08 + 0.85 * share})`;
            return cell;
          }),
        ),
      ),
    ),
  );
}
