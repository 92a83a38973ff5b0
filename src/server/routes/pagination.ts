import { decodeCursor, encodeCursor } from "../../store/ids.js";
import { ApiError } from "../errors.js";

/** Reads a cursor query parameter; a cursor we did not issue is a 400, not an empty page. */
export function cursorSeq(cursor: string | undefined): number | null {
  if (cursor === undefined) return null;
  const seq = decodeCursor(cursor);
  if (seq === null) throw new ApiError("validation_failed", "cursor is not one this service issued", [{ path: "query.cursor", message: "invalid cursor" }]);
  return seq;
}

/** Fetch limit + 1 rows; the extra one only says whether there is a next page. */
export function page<T extends { seq: number }, U>(rows: T[], limit: number, toWire: (row: T) => U): { items: U[]; next_cursor: string | null } {
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  return { items: kept.map(toWire), next_cursor: more ? encodeCursor(kept[kept.length - 1].seq) : null };
}
