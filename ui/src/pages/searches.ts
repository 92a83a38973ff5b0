/** Searches: the list, and one search as a ranked table with a score-vs-parameter plot. */
import { get, poll, sleep } from "../api.js";
import { field, fill, fmt, h, section, statusBadge, table } from "../dom.js";
import { scoreVsParameter } from "../charts/points.js";
import { title, type PageContext } from "../page.js";
import type { Page, Search } from "../types.js";

export async function searchesPage(ctx: PageContext): Promise<void> {
  title(ctx, "Searches");
  const page = await get<Page<Search>>("/v1/searches?limit=100");
  if (!ctx.alive()) return;
  ctx.main.append(
    page.items.length === 0
      ? h("p", {}, "No searches yet (POST /v1/searches starts one).")
      : table(
          ["Search", "Algorithm", "Method", "Status", "Best score", "Created"],
          page.items.map((s) => [h("a", { href: `#/searches/${s.id}` }, s.id), s.algorithm, s.method, statusBadge(s.status), `${s.scoring} ${fmt(s.best_score)}`, new Date(s.created_at).toLocaleString()]),
        ),
  );
}

export async function searchPage(ctx: PageContext): Promise<void> {
  const path = `/v1/searches/${encodeURIComponent(ctx.params[0])}`;
  let search = await get<Search>(path);
  if (!ctx.alive()) return;
  title(ctx, `Search ${search.id}`);
  const head = h("div", { class: "card summary" });
  ctx.main.append(head);
  while (ctx.alive()) {
    fill(head,
      h("p", {}, statusBadge(search.status), ` ${search.algorithm} · ${search.method} · scoring ${search.scoring} · target ${search.target}`, search.model_id ? [" · refitted: ", h("a", { href: `#/models/${search.model_id}` }, search.model_id)] : ""),
      search.status === "queued" || search.status === "running" ? h("progress", { max: 1, value: search.progress, "aria-label": "Search progress" }) : null,
      search.best_params ? h("p", {}, `best ${search.scoring} ${fmt(search.best_score)}`) : null,
    );
    if (search.status !== "queued" && search.status !== "running") break;
    await sleep(500);
    search = (await poll<Search>(path)).body;
  }
  if (!ctx.alive()) return;
  const ranked = [...search.results].sort((a, b) => (a.rank ?? Infinity) - (b.rank ?? Infinity));
  // The table shows the parameters the search varied (all of them when it varied none).
  const all = [...new Set(search.results.flatMap((r) => Object.keys(r.params)))];
  const varied = all.filter((n) => new Set(search.results.map((r) => JSON.stringify(r.params[n]))).size > 1);
  const names = varied.length > 0 ? varied : all;
  ctx.main.append(
    section(
      "Candidates, best first",
      h(
        "div",
        { class: "table-scroll" },
        table(
          ["Rank", ...names, `mean ${search.scoring}`, "std", "Evaluation"],
          ranked.map((r) => [fmt(r.rank), ...names.map((n) => fmt(r.params[n])), fmt(r.mean_score), fmt(r.std_score), h("a", { href: `#/evaluations/${r.evaluation_id}` }, r.status)]),
        ),
      ),
    ),
  );
  const numericParams = names.filter((n) => search.results.some((r) => typeof r.params[n] === "number"));
  if (numericParams.length > 0) {
    const select = h("select", { name: "parameter" }, numericParams.map((n) => h("option", { value: n }, n)));
    const out = h("div", { class: "chart-holder" });
    const draw = () => {
      const n = select.value;
      const points = search.results
        .filter((r) => typeof r.params[n] === "number" && r.mean_score !== null)
        .map((r) => ({ x: r.params[n] as number, mean: r.mean_score!, std: r.std_score ?? 0 }));
      out.replaceChildren(scoreVsParameter(points, { title: `${search.scoring} against ${n}`, xLabel: n, yLabel: search.scoring }));
    };
    select.addEventListener("change", draw);
    draw();
    ctx.main.append(section("Score against a parameter", field("Parameter", select), out));
  }
}
