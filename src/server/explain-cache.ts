/**
 * Serialised explanations by artifact sha256 and options, least recently used
 * first out, bounded in bytes: an explanation depends only on the artifact, so
 * a repeated /explain costs a lookup instead of a walk over the model.
 */
import { ByteLru } from "./byte-lru.js";

export interface CachedExplanation {
  readonly body: Buffer;
  readonly contentType: string;
}

export class ExplanationCache {
  private readonly lru: ByteLru<CachedExplanation>;

  constructor(
    maxBytes: number,
    /** Larger explanations are not kept (one would evict everything else). */
    private readonly maxEntryBytes = Math.floor(maxBytes / 8),
  ) {
    this.lru = new ByteLru({ maxBytes });
  }

  get(key: string): CachedExplanation | undefined {
    return this.lru.get(key);
  }

  set(key: string, value: CachedExplanation): void {
    if (value.body.length > this.maxEntryBytes) return;
    this.lru.set(key, value, value.body.length);
  }

  get size(): number {
    return this.lru.size;
  }

  get totalBytes(): number {
    return this.lru.bytes;
  }
}
