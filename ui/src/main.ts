/**
 * The dashboard's entry: a hash router (#/datasets, #/datasets/{id}, #/train, #/models,
 * #/models/{id}, #/evaluations, #/evaluations/{id}, #/compare?ids=…, #/searches,
 * #/searches/{id}), one module per page, and the API-key prompt for XIGUA_AUTH=keys.
 */
import { apiKey, setApiKey, setUnauthorisedHandler } from "./api.js";
import { errorBox, field, h } from "./dom.js";
import type { PageContext } from "./page.js";
import { datasetsPage } from "./pages/datasets.js";
import { datasetPage } from "./pages/dataset.js";
import { trainPage } from "./pages/train.js";
import { modelsPage, modelPage } from "./pages/model.js";
import { evaluationsPage, evaluationPage, comparePage } from "./pages/evaluation.js";
import { searchesPage, searchPage } from "./pages/searches.js";

type Page = (ctx: PageContext) => Promise<void>;

const ROUTES: [RegExp, Page, string][] = [
  [/^\/?$/, datasetsPage, "datasets"],
  [/^\/datasets$/, datasetsPage, "datasets"],
  [/^\/datasets\/([^/]+)$/, datasetPage, "datasets"],
  [/^\/train$/, trainPage, "train"],
  [/^\/models$/, modelsPage, "models"],
  [/^\/models\/([^/]+)$/, modelPage, "models"],
  [/^\/evaluations$/, evaluationsPage, "evaluations"],
  [/^\/evaluations\/([^/]+)$/, evaluationPage, "evaluations"],
  [/^\/compare$/, comparePage, "evaluations"],
  [/^\/searches$/, searchesPage, "searches"],
  [/^\/searches\/([^/]+)$/, searchPage, "searches"],
];

const main = document.getElementById("main") as HTMLElement;
const authArea = document.getElementById("auth") as HTMLElement;
let generation = 0;

function showKeyForm(message: string): void {
  const input = h("input", { type: "password", autocomplete: "off", required: true, name: "key" });
  const form = h(
    "form",
    { class: "key-form", "aria-label": "API key" },
    h("p", {}, message),
    field("API key", input, "Kept in this tab's session storage only; sent as Authorization: Bearer."),
    h("button", { type: "submit" }, "Use key"),
  );
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    setApiKey(input.value.trim());
    renderAuth();
    void route();
  });
  authArea.replaceChildren(form);
  input.focus();
}

function renderAuth(): void {
  if (!apiKey()) {
    authArea.replaceChildren();
    return;
  }
  const forget = h("button", { type: "button", class: "link" }, "Forget API key");
  forget.addEventListener("click", () => {
    setApiKey(null);
    renderAuth();
  });
  authArea.replaceChildren(h("p", { class: "key-set" }, "Using an API key. ", forget));
}

setUnauthorisedHandler(() => showKeyForm(apiKey() ? "The API key was refused: enter another." : "This server requires an API key."));

async function route(): Promise<void> {
  const mine = ++generation;
  const hash = location.hash.replace(/^#/, "") || "/";
  const [path, query = ""] = hash.split("?");
  const found = ROUTES.find(([re]) => re.test(path));
  document.querySelectorAll("nav a").forEach((a) => a.removeAttribute("aria-current"));
  main.replaceChildren();
  if (!found) {
    main.append(errorBox(`No page at ${hash}.`));
    return;
  }
  const [re, page, nav] = found;
  document.querySelector(`nav a[data-nav="${nav}"]`)?.setAttribute("aria-current", "page");
  const params = (re.exec(path) ?? []).slice(1).map(decodeURIComponent);
  const ctx: PageContext = { main, params, query: new URLSearchParams(query), alive: () => mine === generation };
  try {
    await page(ctx);
  } catch (e) {
    if (ctx.alive()) main.append(errorBox(e instanceof Error ? e.message : String(e)));
  }
  // Focus the new page's heading (screen readers announce it), unless the key prompt holds the focus.
  if (ctx.alive() && !authArea.contains(document.activeElement)) (main.querySelector("h1") as HTMLElement | null)?.focus();
}

window.addEventListener("hashchange", () => void route());
renderAuth();
void route();
