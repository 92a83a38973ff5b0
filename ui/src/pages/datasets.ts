/** Datasets: upload a CSV (drag and drop or a file picker, with upload progress) and the list of datasets. */
import { get, uploadCsv } from "../api.js";
import { errorBox, field, fmt, h, section, table } from "../dom.js";
import { title, type PageContext } from "../page.js";
import type { Dataset, Page } from "../types.js";

export async function datasetsPage(ctx: PageContext): Promise<void> {
  title(ctx, "Datasets");
  ctx.main.append(uploadForm());
  const list = section("All datasets");
  ctx.main.append(list);
  const page = await get<Page<Dataset>>("/v1/datasets?limit=100");
  if (!ctx.alive()) return;
  list.append(
    page.items.length === 0
      ? h("p", {}, "No datasets yet: upload a CSV above.")
      : table(
          ["Name", "Rows", "Columns", "Created", ""],
          page.items.map((d) => [
            h("a", { href: `#/datasets/${d.id}` }, d.name),
            d.row_count,
            d.column_count,
            new Date(d.created_at).toLocaleString(),
            h("a", { href: `#/train?dataset=${d.id}` }, "Train…"),
          ]),
        ),
  );
}

function uploadForm(): HTMLElement {
  const file = h("input", { type: "file", accept: ".csv,text/csv", name: "file" });
  const name = h("input", { type: "text", name: "name", maxlength: 200 });
  const progress = h("progress", { max: 1, value: 0, hidden: true, "aria-label": "Upload progress" });
  const status = h("p", { role: "status", class: "status-line" });
  const submit = h("button", { type: "submit" }, "Upload");
  const drop = h("div", { class: "dropzone", tabindex: -1 }, "Drop a CSV file here, or choose one:", field("CSV file", file));
  const form = h("form", { class: "upload", "aria-label": "Upload a CSV" }, drop, field("Dataset name", name, "Defaults to the file's name."), submit, progress, status);

  const pick = (f: File | undefined) => {
    if (!f) return;
    chosen = f;
    if (!name.value) name.value = f.name.replace(/\.csv$/i, "");
    status.textContent = `${f.name} (${fmt(f.size / 1024, 1)} KiB) ready to upload.`;
  };
  let chosen: File | undefined;
  file.addEventListener("change", () => pick(file.files?.[0]));
  drop.addEventListener("dragover", (e) => {
    e.preventDefault();
    drop.classList.add("over");
  });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    pick(e.dataTransfer?.files[0]);
  });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (!chosen) {
      status.replaceChildren(errorBox("Choose or drop a CSV file first."));
      return;
    }
    submit.disabled = true;
    progress.hidden = false;
    progress.value = 0;
    try {
      const ds = await uploadCsv<Dataset>(chosen, name.value || chosen.name, (f) => (progress.value = f));
      progress.value = 1;
      location.hash = `#/datasets/${ds.id}`;
    } catch (err) {
      status.replaceChildren(errorBox(err instanceof Error ? err.message : String(err)));
    } finally {
      submit.disabled = false;
    }
  });
  return section("Upload a CSV", form);
}
