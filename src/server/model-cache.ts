/**
 * Loaded artifacts for /predict, least recently used first out. Loading parses
 * and validates an artifact (milliseconds); a cached predict costs microseconds.
 * Entries are keyed by model id and checked against the stored sha256, so an
 * artifact can never be served stale.
 */
import type { FittedModel } from "../training/artifact.js";
import { loadArtifact } from "../training/artifact.js";
import type { Store } from "../store/store.js";

/** How long a "succeeded" status is trusted without asking SQLite again (a deletion elsewhere shows within this). */
const STATUS_TTL_MS = 1000;

export class ModelCache {
  private readonly entries = new Map<string, FittedModel & { sha256: string }>();
  private readonly statuses = new Map<string, { status: string; sha256: string | null; checkedAt: number }>();

  constructor(
    private readonly store: Store,
    private readonly capacity: number,
  ) {}

  /** undefined when the model has no artifact (not trained yet, or unknown). */
  get(id: string, sha256: string): FittedModel | undefined {
    const hit = this.entries.get(id);
    if (hit && hit.sha256 === sha256) {
      this.entries.delete(id);
      this.entries.set(id, hit);
      return hit;
    }
    const stored = this.store.models.getArtifact(id);
    if (!stored) return undefined;
    const model = loadArtifact(stored.artifact);
    this.entries.set(id, model);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return model;
  }

  /**
   * The model's status and artifact checksum, for /predict. A succeeded model only
   * ever changes by being deleted, so that answer is reused for STATUS_TTL_MS; any
   * other status is read fresh every time.
   */
  servingState(id: string): { status: string; sha256: string | null } | undefined {
    const now = performance.now();
    const hit = this.statuses.get(id);
    if (hit && now - hit.checkedAt < STATUS_TTL_MS) return hit;
    const row = this.store.models.servingState(id);
    if (!row) {
      this.statuses.delete(id);
      return undefined;
    }
    const state = { status: row.status, sha256: row.artifact_sha256, checkedAt: now };
    if (row.status === "succeeded") {
      this.statuses.set(id, state);
      if (this.statuses.size > this.capacity * 4) this.statuses.delete(this.statuses.keys().next().value!);
    }
    return state;
  }

  evict(id: string): void {
    this.entries.delete(id);
    this.statuses.delete(id);
  }
}
