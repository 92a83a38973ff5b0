/**
 * Loaded artifacts for /predict, least recently used first out. Loading parses
 * and validates an artifact (milliseconds); a cached predict costs microseconds.
 * Entries are keyed by model id and checked against the stored sha256, so an
 * artifact can never be served stale.
 */
import type { FittedModel } from "../training/artifact.js";
import { loadArtifact } from "../training/artifact.js";
import type { Store } from "../store/store.js";

export class ModelCache {
  private readonly entries = new Map<string, FittedModel & { sha256: string }>();

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

  evict(id: string): void {
    this.entries.delete(id);
  }
}
