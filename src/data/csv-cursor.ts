/**
 * A minimal RFC 4180 tokenizer over the bytes of a CSV, one field at a time.
 * Hand-written because csv-parse builds a string (and an array) for every cell,
 * which made a 100,000 × 20 upload about six times slower than pandas; this keeps
 * a field as a byte range, so a numeric cell can be parsed without a string.
 *
 * Accepted: comma separator; `"` quoting with `""` for a quote inside; CRLF, LF and
 * a lone CR as row ends (also inside quotes, where they are part of the value);
 * blank lines are skipped (as pandas does). A quote inside an unquoted field is a
 * plain character. Refused (DataError): an unclosed quote, text after a closing quote.
 */
import { DataError } from "./errors.js";

const COMMA = 44;
const QUOTE = 34;
const LF = 10;
const CR = 13;

export class CsvCursor {
  pos: number;
  /** 1-based line of `pos`. */
  line = 1;
  /** Byte range of the last field's content, quotes excluded. */
  start = 0;
  end = 0;
  /** The last field contains `""` pairs, so its text is not its raw bytes. */
  escaped = false;
  /** The last field ended its row (a row end or the end of the input follows it). */
  rowEnd = true;

  constructor(
    readonly bytes: Buffer,
    start = 0,
  ) {
    this.pos = start;
  }

  /** Moves over blank lines to the next row; false at the end of the input. */
  nextRow(): boolean {
    const b = this.bytes;
    const n = b.length;
    let p = this.pos;
    while (p < n) {
      const c = b[p];
      if (c === LF) p++;
      else if (c === CR) p += p + 1 < n && b[p + 1] === LF ? 2 : 1;
      else break;
      this.line++;
    }
    this.pos = p;
    this.rowEnd = false;
    return p < n;
  }

  readField(): void {
    const b = this.bytes;
    const n = b.length;
    let p = this.pos;
    this.escaped = false;
    if (p < n && b[p] === QUOTE) {
      const openedAt = this.line;
      let q = p + 1;
      this.start = q;
      for (;;) {
        const k = b.indexOf(QUOTE, q);
        if (k < 0) throw new DataError(`a quoted field opened in line ${openedAt} is never closed`, `line ${openedAt}`);
        this.line += countLineBreaks(b, q, k);
        if (k + 1 < n && b[k + 1] === QUOTE) {
          this.escaped = true;
          q = k + 2;
          continue;
        }
        this.end = k;
        p = k + 1;
        break;
      }
      if (p < n) {
        const c = b[p];
        if (c !== COMMA && c !== LF && c !== CR) {
          throw new DataError(`line ${this.line}: unexpected text after a closing quote (a quote inside a quoted field is written "")`, `line ${this.line}`);
        }
      }
    } else {
      this.start = p;
      while (p < n) {
        const c = b[p];
        if (c === COMMA || c === LF || c === CR) break;
        p++;
      }
      this.end = p;
    }
    this.pos = this.finishField(p);
  }

  /** Decoded text of the last field. */
  text(): string {
    const s = this.bytes.toString("utf8", this.start, this.end);
    return this.escaped ? s.replaceAll('""', '"') : s;
  }

  /**
   * Takes bytes [start, end) as the current field, unquoted, and moves past the
   * separator or row end at `end` (the caller has checked that one, or the end of
   * the input, is there): the reader's one-pass number path.
   */
  takeField(start: number, end: number): void {
    this.escaped = false;
    this.start = start;
    this.end = end;
    this.pos = this.finishField(end);
  }

  private finishField(p: number): number {
    const b = this.bytes;
    const n = b.length;
    if (p >= n) {
      this.rowEnd = true;
      return p;
    }
    const c = b[p];
    if (c === COMMA) {
      this.rowEnd = false;
      return p + 1;
    }
    this.rowEnd = true;
    this.line++;
    return c === CR && p + 1 < n && b[p + 1] === LF ? p + 2 : p + 1;
  }
}

/**
 * Row ends (CRLF counted once) in bytes [from, to). Linear in `to - from`, never
 * in the rest of the buffer: called once per quoted field, a search that ran on
 * to the end of the input (a CR search in an LF file) made reading quadratic.
 */
export function countLineBreaks(b: Buffer, from: number, to: number): number {
  if (to - from <= SHORT_RANGE) return countLineBreaksByByte(b, from, to);
  const view = from === 0 && to === b.length ? b : b.subarray(from, to);
  const n = view.length;
  let k = 0;
  for (let p = view.indexOf(LF); p >= 0; p = view.indexOf(LF, p + 1)) k++;
  for (let p = view.indexOf(CR); p >= 0; p = view.indexOf(CR, p + 1)) {
    // A CR at the end of the range ends a row unless the LF right after it (outside the range) does.
    const next = p + 1 < n ? view[p + 1] : from + p + 1 < b.length ? b[from + p + 1] : -1;
    if (next !== LF) k++;
  }
  return k;
}

// Below this a byte loop beats making a subarray view for indexOf (most quoted cells are short).
const SHORT_RANGE = 64;

function countLineBreaksByByte(b: Buffer, from: number, to: number): number {
  let k = 0;
  for (let p = from; p < to; p++) {
    const c = b[p];
    if (c === LF || (c === CR && (p + 1 >= b.length || b[p + 1] !== LF))) k++;
  }
  return k;
}
