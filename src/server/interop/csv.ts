/**
 * CSV in and out for predictions and exports. Reading keeps every cell as the text
 * it was sent as (the model's own encoding, as for JSON rows, turns it into a
 * number, a level or a missing value), so a scored file can be echoed back as given.
 * Writing quotes a field only when it must (RFC 4180: a comma, a quote or a line
 * break in it), and writes a missing cell as an empty field.
 */
import { CsvCursor } from "../../data/csv-cursor.js";
import { DataError } from "../../data/errors.js";
import { FORBIDDEN_COLUMN_NAMES } from "../../data/infer.js";
import { ApiError } from "../errors.js";

export interface CsvTable {
  columns: string[];
  /** Cells as text, row by row ("" for an empty field). */
  cells: string[][];
}

const malformed = (message: string, path: string) => new ApiError("malformed_request", message, [{ path, message }]);

function readHeader(cursor: CsvCursor): string[] {
  const names: string[] = [];
  const seen = new Set<string>();
  do {
    cursor.readField();
    const name = cursor.text();
    if (name.trim() === "") throw malformed(`column ${names.length + 1} of the header has no name`, "header");
    if (FORBIDDEN_COLUMN_NAMES.includes(name)) throw malformed(`"${name}" cannot be a column name`, `header.${name}`);
    if (seen.has(name)) throw malformed(`the header names "${name}" twice`, "header");
    seen.add(name);
    names.push(name);
  } while (!cursor.rowEnd);
  return names;
}

/**
 * A CSV body (header row required; UTF-8, optional BOM, RFC 4180 quoting) → its cells.
 * More than `maxRows` data rows is a 413 as soon as the row past the limit is met.
 */
export function readCsvTable(bytes: Buffer, maxRows: number): CsvTable {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const cursor = new CsvCursor(bytes, bom ? 3 : 0);
  try {
    if (!cursor.nextRow()) throw malformed("the CSV is empty: a header row and at least one data row are needed", "body");
    const columns = readHeader(cursor);
    const width = columns.length;
    const cells: string[][] = [];
    while (cursor.nextRow()) {
      const line = cursor.line;
      if (cells.length === maxRows) {
        throw new ApiError("payload_too_large", `the CSV has more than ${maxRows} rows; the limit is ${maxRows} (XIGUA_PREDICT_MAX_ROWS): send them in batches`, [
          { path: "body", message: `at most ${maxRows} rows` },
        ]);
      }
      const row: string[] = [];
      do {
        cursor.readField();
        row.push(cursor.text());
      } while (!cursor.rowEnd);
      if (row.length !== width) throw malformed(`line ${line} has ${row.length} field${row.length === 1 ? "" : "s"}, but the header has ${width}`, `line ${line}`);
      cells.push(row);
    }
    if (cells.length === 0) throw malformed("the CSV has a header but no data rows", "body");
    return { columns, cells };
  } catch (e) {
    if (e instanceof DataError) throw malformed(e.message, e.path ?? "body");
    throw e;
  }
}

/** The table's rows as predict rows (column → text). */
export function tableRows(table: CsvTable): Record<string, string>[] {
  return table.cells.map((row) => {
    const out: Record<string, string> = {};
    table.columns.forEach((name, j) => (out[name] = row[j]));
    return out;
  });
}

export type CsvCell = string | number | boolean | null | undefined;

export function csvField(value: CsvCell): string {
  if (value === null || value === undefined) return "";
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record with its CRLF (RFC 4180). A lone empty field is written `""`: an empty line would be skipped as blank. */
export function csvLine(cells: readonly CsvCell[]): string {
  const line = cells.map(csvField).join(",");
  return (line === "" && cells.length === 1 ? '""' : line) + "\r\n";
}

/**
 * Whether an Accept header asks for CSV: text/csv is listed (q > 0) and no JSON type
 * is preferred to it (a higher q, or the same q listed first). Without the header, JSON.
 */
export function wantsCsv(accept: string | undefined): boolean {
  if (!accept) return false;
  let csv = -1;
  let json = -1;
  accept.split(",").forEach((part, i) => {
    const [type, ...params] = part.split(";").map((s) => s.trim().toLowerCase());
    const q = params.map((p) => /^q=([\d.]+)$/.exec(p)).find(Boolean);
    const weight = q ? Number(q[1]) : 1;
    // Earlier entries win ties: a tiny penalty by position.
    const score = weight > 0 ? weight - i * 1e-6 : -1;
    if (type === "text/csv") csv = Math.max(csv, score);
    else if (type === "application/json" || type === "application/*") json = Math.max(json, score);
  });
  return csv > 0 && csv > json;
}
