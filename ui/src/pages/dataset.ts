/** One dataset: its columns (type, missing, summary, levels), the distribution of a column, a paged table of rows, feature scores. */
import { get, send } from "../api.js";
import { errorBox, field, fmt, h, section, table } from "../dom.js";
import { barChart, barsOf } from "../charts/bar.js";
import { title, type PageContext } from "../page.js";
import type { Cell, Dataset } from "../types.js";

const PAGE = 20;
/** Distributions are counted from the rows, fetched in pages: only for tables this small. */
const DISTRIBUTION_MAX_ROWS = 5000;
const SCORE_METHODS = ["info_gain", "gain_ratio", "gini_index", "mutual_info", "chi2", "pearson", "variance"];

export async function datasetPage(ctx: PageContext): Promise<void> {
  const ds = await get<Dataset>(`/v1/datasets/${encodeURIComponent(ctx.params[0])}`);
  if (!ctx.alive()) return;
  title(ctx, `Dataset ${ds.name}`);
  ctx.main.append(
    h("p", { class: "meta" }, `${ds.id} · ${ds.row_count} rows · ${ds.column_count} columns · `, h("a", { href: `#/train?dataset=${ds.id}` }, "Train a model on it")),
    section(
      "Columns",
      table(
        ["Column", "Type", "Missing", "Summary"],
        ds.columns.map((c) => [
          c.name,
          c.type + (c.role_hint ? ` (${c.role_hint})` : ""),
          c.missing_count,
          c.summary
            ? `min ${fmt(c.summary.min, 3)} · max ${fmt(c.summary.max, 3)} · mean ${fmt(c.summary.mean, 3)} · std ${fmt(c.summary.std, 3)}`
            : `${c.level_count ?? c.levels?.length ?? 0} levels: ${(c.levels ?? []).slice(0, 8).join(", ")}${(c.level_count ?? 0) > 8 ? ", …" : ""}`,
        ]),
      ),
    ),
  );
  if (ds.row_count <= DISTRIBUTION_MAX_ROWS) ctx.main.append(distributions(ds));
  ctx.main.append(rowsTable(ds), featureScores(ds));
}

async function allRows(ds: Dataset): Promise<Record<string, Cell>[]> {
  const rows: Record<string, Cell>[] = [];
  while (rows.length < ds.row_count) {
    const page = await get<{ items: Record<string, Cell>[] }>(`/v1/datasets/${ds.id}/rows?offset=${rows.length}&limit=500`);
    if (page.items.length === 0) break;
    rows.push(...page.items);
  }
  return rows;
}

/** Histogram for a numeric column (10 bins), level counts for a categorical one. */
function distributions(ds: Dataset): HTMLElement {
  const select = h("select", { name: "column" }, ds.columns.map((c) => h("option", { value: c.name }, c.name)));
  const out = h("div", { class: "chart-holder" });
  let rows: Promise<Record<string, Cell>[]> | null = null;
  const draw = async () => {
    rows ??= allRows(ds);
    const column = ds.columns.find((c) => c.name === select.value)!;
    const values = (await rows).map((r) => r[column.name]).filter((v) => v !== null && v !== undefined);
    const counts: Record<string, number> = {};
    if (column.type === "numeric" && column.summary && column.summary.min !== null && column.summary.max !== null) {
      const { min, max } = column.summary;
      const bins = 10, width = (max - min) / bins || 1;
      const edges = Array.from({ length: bins }, (_, i) => `${fmt(min + i * width, 3)} – ${fmt(min + (i + 1) * width, 3)}`);
      edges.forEach((e) => (counts[e] = 0));
      for (const v of values) counts[edges[Math.min(bins - 1, Math.floor((Number(v) - min) / width))]]++;
      out.replaceChildren(barChart(Object.entries(counts).map(([label, value]) => ({ label, value })), { title: `Histogram of ${column.name}` }));
    } else {
      for (const v of values) counts[String(v)] = (counts[String(v)] ?? 0) + 1;
      out.replaceChildren(barChart(barsOf(counts), { title: `Level counts of ${column.name}` }));
    }
  };
  select.addEventListener("change", () => void draw().catch((e) => out.replaceChildren(errorBox(String(e)))));
  void draw().catch((e) => out.replaceChildren(errorBox(String(e))));
  return section("Distribution of a column", field("Column", select), out);
}

function rowsTable(ds: Dataset): HTMLElement {
  let offset = 0;
  const holder = h("div", { class: "table-scroll" });
  const info = h("span", { role: "status" });
  const prev = h("button", { type: "button" }, "Previous");
  const next = h("button", { type: "button" }, "Next");
  const load = async () => {
    const page = await get<{ items: Record<string, Cell>[]; total: number }>(`/v1/datasets/${ds.id}/rows?offset=${offset}&limit=${PAGE}`);
    const names = ds.columns.map((c) => c.name);
    holder.replaceChildren(table(["#", ...names], page.items.map((r, i) => [offset + i + 1, ...names.map((n) => fmt(r[n]))])));
    info.textContent = `Rows ${page.total === 0 ? 0 : offset + 1}–${offset + page.items.length} of ${page.total}`;
    prev.disabled = offset === 0;
    next.disabled = offset + PAGE >= page.total;
  };
  prev.addEventListener("click", () => {
    offset = Math.max(0, offset - PAGE);
    void load();
  });
  next.addEventListener("click", () => {
    offset += PAGE;
    void load();
  });
  void load();
  return section("Rows", h("div", { class: "pager" }, prev, info, next), holder);
}

function featureScores(ds: Dataset): HTMLElement {
  const target = h("select", { name: "target" }, ds.columns.map((c) => h("option", { value: c.name }, c.name)));
  target.value = ds.columns[ds.columns.length - 1]?.name ?? "";
  const method = h("select", { name: "method" }, SCORE_METHODS.map((m) => h("option", { value: m }, m)));
  const out = h("div", { class: "chart-holder" });
  const form = h("form", { class: "inline", "aria-label": "Feature scores" }, field("Target", target), field("Method", method), h("button", { type: "submit" }, "Score features"));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const res = await send<{ scores: { feature: string; score: number; threshold?: number }[] }>("POST", `/v1/datasets/${ds.id}/feature-scores`, {
        method: method.value,
        ...(method.value === "variance" ? {} : { target: target.value }),
      });
      out.replaceChildren(
        barChart(res.scores.map((x) => ({ label: x.threshold !== undefined ? `${x.feature} (≤ ${fmt(x.threshold, 3)})` : x.feature, value: x.score })), {
          title: `${method.value} of each feature for ${target.value} (best first)`,
        }),
      );
    } catch (err) {
      out.replaceChildren(errorBox(err instanceof Error ? err.message : String(err)));
    }
  });
  return section("Feature scores", form, out);
}
