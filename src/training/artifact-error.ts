/**
 * The error a model artifact that cannot be loaded gives. In a file of its own so that
 * code that only recognises it (a compute thread's problemOf) does not load every
 * algorithm family with artifact.ts.
 */
export class ArtifactError extends Error {
  constructor(
    message: string,
    readonly path?: string,
    /**
     * non_finite: a NaN or infinite number where a finite one is needed (a fit that diverged or overflowed);
     * too_many_classes: more than MAX_CLASSES; both are the training data's doing when a fit produces them.
     */
    readonly reason: "invalid" | "non_finite" | "too_many_classes" = "invalid",
  ) {
    super(message);
    this.name = "ArtifactError";
  }
}
