/**
 * GET /v1/datasets/{id}/rows as CSV: a page, or the whole table read chunk by chunk
 * from the store (each a few value chunks, never the whole Frame) and written as it goes.
 */
import { cellValue, type Frame } from "../../data/frame.js";
import type { DatasetStore } from "../../store/store.js";
import { csvLine } from "./csv.js";

/** Rows per store read while exporting a whole table. */
export const EXPORT_CHUNK_ROWS = 10_000;

export function csvOfFrame(frame: Frame, header: boolean): string {
  let text = header ? csvLine(frame.columns.map((c) => c.name)) : "";
  for (let r = 0; r < frame.rowCount; r++) text += csvLine(frame.columns.map((c) => cellValue(c, r)));
  return text;
}

/** The whole table from its first page on: the header, then every chunk of rows. */
export async function* exportChunks(datasets: Pick<DatasetStore, "loadRows">, id: string, first: { frame: Frame; total: number }): AsyncGenerator<string> {
  yield csvOfFrame(first.frame, true);
  for (let offset = first.frame.rowCount; offset < first.total; offset += EXPORT_CHUNK_ROWS) {
    const page = await datasets.loadRows(id, offset, EXPORT_CHUNK_ROWS);
    // Deleted while being exported: the stream ends short (the error destroys the response).
    if (!page) throw new Error(`dataset ${id} was deleted during the export`);
    yield csvOfFrame(page.frame, false);
  }
}
