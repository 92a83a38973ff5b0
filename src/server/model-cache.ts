/**
 * Loaded artifacts for /predict, least recently used first out. Loading parses
 * and validates an artifact (milliseconds); a cached predict costs microseconds.
 * Entries are keyed by model id and checked against the stored sha256, so an
 * artifact can never be served stale.
 *
 * Bounded twice: by count and by bytes. 64 large SVM or MLP artifacts can pass
 * the heap, so each entry carries an estimate of what it holds in memory (see
 * estimateModelBytes) and the cache evicts until the sum fits its budget. A model
 * larger than the whole budget is still served and kept alone, so it is not
 * re-parsed on every request.
 */
import type { FittedModel } from "../training/artifact.js";
import { loadTrainingModules, trainingModules } from "./training-modules.js";
import type { ServingRow } from "../store/models.js";
import { ByteLru } from "./byte-lru.js";

/** How long a "succeeded" status is trusted without asking SQLite again (a deletion elsewhere shows within this). */
const STATUS_TTL_MS = 1000;

type MaybePromise<T> = T | Promise<T>;

/**
 * What the cache reads from the store: the main thread's async ModelStore, or a
 * compute thread's synchronous read-only SQLite repository.
 */
export interface ArtifactSource {
  getArtifact(id: string): MaybePromise<{ artifact: Buffer; sha256: string } | undefined>;
  servingState(id: string): MaybePromise<ServingRow | undefined>;
}

export interface ServingState {
  status: string;
  sha256: string | null;
  /** The model's registry name and version (null without a name): fixed for an id, so cached with the status. */
  name: string | null;
  version: number | null;
}

export interface CacheLimits {
  maxModels: number;
  maxBytes: number;
}

export type CachedModel = FittedModel & { sha256: string; bytes: number };

/** Typed-array bytes reachable from a decoded value (states keep their weights, nodes and support vectors in typed arrays). */
function typedArrayBytes(value: unknown, depth = 0): number {
  if (value === null || typeof value !== "object" || depth > 64) return 0;
  if (ArrayBuffer.isView(value)) return value.byteLength;
  let sum = 0;
  for (const v of Array.isArray(value) ? value : Object.values(value)) sum += typedArrayBytes(v, depth + 1);
  return sum;
}

/**
 * Memory a loaded model holds, estimated from what is cheap to know: its artifact's
 * size (the JSON carries every plain number, string and object once) plus the typed
 * arrays decoded from it. An overestimate for most models, never a gross underestimate.
 */
export function estimateModelBytes(artifactBytes: number, model: FittedModel): number {
  return artifactBytes + typedArrayBytes(model.pipeline);
}

export class ModelCache {
  /** Lookups answered from memory, for the metrics (plain counters: the predict hot path pays one increment). */
  hits = 0;
  /** Artifacts loaded from the store (a lookup that missed and was then served). */
  misses = 0;
  private readonly entries: ByteLru<CachedModel>;
  private readonly statuses = new Map<string, ServingState & { checkedAt: number }>();

  constructor(
    private readonly source: ArtifactSource,
    private readonly limits: CacheLimits,
  ) {
    this.entries = new ByteLru({ maxBytes: limits.maxBytes, maxEntries: limits.maxModels });
  }

  /** The cached model when it is loaded with this sha256 (marked most recently used), without reading the store; else undefined. */
  peek(id: string, sha256: string): CachedModel | undefined {
    if (this.entries.peek(id)?.sha256 !== sha256) return undefined;
    this.hits++;
    return this.entries.get(id);
  }

  /**
   * undefined when the model has no artifact (not trained yet, or unknown). Rejects with ArtifactError when the stored artifact no longer loads.
   * A deletion whose evict() lands while this awaits the store may leave the entry cached; it is served only while
   * servingState still answers "succeeded" with its sha256, i.e. within STATUS_TTL_MS, as for a deletion on another thread.
   */
  async get(id: string, sha256: string): Promise<CachedModel | undefined> {
    const hit = this.peek(id, sha256);
    if (hit) return hit;
    const stored = await this.source.getArtifact(id);
    if (!stored) return undefined;
    this.misses++;
    await loadTrainingModules();
    const loaded = trainingModules().artifact.loadArtifact(stored.artifact);
    const model: CachedModel = { ...loaded, bytes: estimateModelBytes(stored.artifact.byteLength, loaded) };
    this.entries.set(id, model, model.bytes);
    return model;
  }

  /** Estimated bytes held by the cached models. */
  get bytes(): number {
    return this.entries.bytes;
  }

  get size(): number {
    return this.entries.size;
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  /**
   * The model's status and artifact checksum, for /predict. A succeeded model only
   * ever changes by being deleted, so that answer is reused for STATUS_TTL_MS; any
   * other status is read fresh every time.
   */
  async servingState(id: string): Promise<ServingState | undefined> {
    return this.peekServingState(id) ?? this.readServingState(id);
  }

  /**
   * The cached answer when it is still fresh, without reading the store (the /predict
   * hot path: no await on a hit); undefined when the store must be asked.
   */
  peekServingState(id: string): ServingState | undefined {
    const hit = this.statuses.get(id);
    return hit && performance.now() - hit.checkedAt < STATUS_TTL_MS ? hit : undefined;
  }

  private async readServingState(id: string): Promise<ServingState | undefined> {
    const now = performance.now();
    const row = await this.source.servingState(id);
    if (!row) {
      this.statuses.delete(id);
      return undefined;
    }
    const state = { status: row.status, sha256: row.artifact_sha256, name: row.name ?? null, version: row.version ?? null, checkedAt: now };
    if (row.status === "succeeded") {
      this.statuses.set(id, state);
      if (this.statuses.size > this.limits.maxModels * 4) this.statuses.delete(this.statuses.keys().next().value!);
    }
    return state;
  }

  evict(id: string): void {
    this.entries.delete(id);
    this.statuses.delete(id);
  }
}
