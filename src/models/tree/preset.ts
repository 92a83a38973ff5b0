/** Builds a tree Algorithm from a preset: its parameters and how they map onto the one engine. */
import type { z } from "zod";
import type { Accepts, Algorithm, FitContext, Task, TrainingSet } from "../contract.js";
import type { EngineOptions } from "./engine-options.js";
import { explainTree } from "./explain.js";
import { fitTree } from "./grow.js";
import { partialFitTree, refuseIncremental, withInstances } from "./incremental.js";
import { withPruningPath } from "./prune.js";
import { predictTree } from "./predict.js";
import type { TreeState } from "./tree-state.js";
import { treeStateSchema } from "./tree-state.js";

export interface TreePreset<P> {
  readonly name: string;
  readonly description: string;
  readonly tasks: readonly Task[];
  readonly params: z.ZodType<P>;
  readonly accepts: Accepts;
  /** Default false: an axis-aligned split compares one column with a threshold, so units do not matter. */
  readonly scaleSensitive?: boolean;
  readonly options: (params: P, train: TrainingSet) => EngineOptions;
  /**
   * A preset with partial_fit (id3, incremental.ts): whether these params keep the training
   * rows in the state, which partial_fit needs.
   */
  readonly incremental?: (params: P) => boolean;
}

export function treeAlgorithm<P>(preset: TreePreset<P>): Algorithm<P, TreeState> {
  const { incremental } = preset;
  const fit = (train: TrainingSet, params: P, ctx: FitContext): TreeState => {
    const opts = preset.options(params, train);
    const keep = incremental?.(params) ?? false;
    if (keep) refuseIncremental(opts);
    const grown = fitTree(train, opts, ctx);
    // The path is ≈ 5–10 % of a fold's fit on a large tree, and only explain() reads it.
    const s = ctx.scoreOnly ? grown : withPruningPath(grown);
    return keep ? withInstances(s, train) : s;
  };
  return {
    name: preset.name,
    family: "tree",
    tasks: preset.tasks,
    description: preset.description,
    params: preset.params,
    state: treeStateSchema,
    accepts: preset.accepts,
    scaleSensitive: preset.scaleSensitive ?? false,
    fit,
    ...(incremental
      ? {
          partialFit: (s: TreeState, train: TrainingSet, params: P, ctx: FitContext) => partialFitTree(s, train, preset.options(params, train), ctx),
          keptRows: (s: TreeState) => s.instances?.y.length ?? 0,
        }
      : {}),
    predict: predictTree,
    explain: (s, options) => explainTree(s, options),
  };
}
