/**
 * A hash table from byte ranges of one buffer to integers, for the CSV reader's
 * categorical cells: levels repeat, so a cell is looked up by its raw bytes and
 * only a byte sequence seen for the first time is decoded to a string. Keys are
 * (start, end) of their first occurrence, so nothing is copied or allocated per cell.
 */
export const ABSENT = -2;

export class ByteKeyTable {
  private slots: Int32Array;
  private hashes = new Int32Array(16);
  private starts = new Int32Array(16);
  private ends = new Int32Array(16);
  private values = new Int32Array(16);
  size = 0;

  constructor(private readonly bytes: Uint8Array) {
    this.slots = new Int32Array(64).fill(-1);
  }

  get(start: number, end: number): number {
    const b = this.bytes;
    const h = hashBytes(b, start, end);
    const mask = this.slots.length - 1;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const e = this.slots[s];
      if (e < 0) return ABSENT;
      if (this.hashes[e] === h && sameBytes(b, this.starts[e], this.ends[e], start, end)) return this.values[e];
    }
  }

  /** Adds a key known to be absent. */
  add(start: number, end: number, value: number): void {
    if (this.size === this.hashes.length) this.growEntries();
    if ((this.size + 1) * 2 > this.slots.length) this.growSlots();
    const e = this.size++;
    const h = hashBytes(this.bytes, start, end);
    this.hashes[e] = h;
    this.starts[e] = start;
    this.ends[e] = end;
    this.values[e] = value;
    this.place(e, h);
  }

  private place(e: number, h: number): void {
    const mask = this.slots.length - 1;
    let s = h & mask;
    while (this.slots[s] >= 0) s = (s + 1) & mask;
    this.slots[s] = e;
  }

  private growEntries(): void {
    const grow = (a: Int32Array) => {
      const b = new Int32Array(a.length * 2);
      b.set(a);
      return b;
    };
    this.hashes = grow(this.hashes);
    this.starts = grow(this.starts);
    this.ends = grow(this.ends);
    this.values = grow(this.values);
  }

  private growSlots(): void {
    this.slots = new Int32Array(this.slots.length * 2).fill(-1);
    for (let e = 0; e < this.size; e++) this.place(e, this.hashes[e]);
  }
}

/** FNV-1a, 32 bits. */
function hashBytes(b: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5 | 0;
  for (let p = start; p < end; p++) h = Math.imul(h ^ b[p], 0x01000193);
  return h;
}

function sameBytes(b: Uint8Array, s1: number, e1: number, s2: number, e2: number): boolean {
  if (e1 - s1 !== e2 - s2) return false;
  for (let i = 0; i < e1 - s1; i++) if (b[s1 + i] !== b[s2 + i]) return false;
  return true;
}
