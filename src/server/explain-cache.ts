/**
 * Serialised explanations by artifact sha256 and options, least recently used
 * first out, bounded in bytes: an explanation depends only on the artifact, so
 * a repeated /explain costs a lookup instead of a walk over the model.
 */
export interface CachedExplanation {
  readonly body: Buffer;
  readonly contentType: string;
}

export class ExplanationCache {
  private readonly entries = new Map<string, CachedExplanation>();
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    /** Larger explanations are not kept (one would evict everything else). */
    private readonly maxEntryBytes = Math.floor(maxBytes / 8),
  ) {}

  get(key: string): CachedExplanation | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit;
  }

  set(key: string, value: CachedExplanation): void {
    if (value.body.length > this.maxEntryBytes) return;
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.body.length;
      this.entries.delete(key);
    }
    this.entries.set(key, value);
    this.bytes += value.body.length;
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= v.body.length;
    }
  }

  get size(): number {
    return this.entries.size;
  }

  get totalBytes(): number {
    return this.bytes;
  }
}
