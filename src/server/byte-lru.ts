/**
 * A least-recently-used map bounded by the bytes its entries hold (and optionally
 * their count), for the request thread's caches of loaded models and of
 * explanations. The entry just stored is never the one evicted, so a value larger
 * than the whole budget is kept alone rather than reloaded on every request.
 */
export interface ByteLruLimits {
  maxBytes: number;
  maxEntries?: number;
}

export class ByteLru<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private total = 0;

  constructor(private readonly limits: ByteLruLimits) {}

  /** The value without marking it used. */
  peek(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  /** The value, marked most recently used. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V, bytes: number): void {
    this.delete(key);
    this.entries.set(key, { value, bytes });
    this.total += bytes;
    const maxEntries = this.limits.maxEntries ?? Infinity;
    while (this.entries.size > 1 && (this.entries.size > maxEntries || this.total > this.limits.maxBytes)) {
      this.delete(this.entries.keys().next().value!);
    }
  }

  delete(key: string): void {
    const old = this.entries.get(key);
    if (!old) return;
    this.entries.delete(key);
    this.total -= old.bytes;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Bytes held by the entries, as their owners estimated them. */
  get bytes(): number {
    return this.total;
  }
}
