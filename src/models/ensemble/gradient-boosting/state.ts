/**
 * A fitted booster as plain data: all trees of all iterations concatenated into
 * one set of flat typed arrays (tree t owns nodes treeStart[t] .. treeStart[t+1]-1;
 * tree t belongs to output t mod outputs), thresholds on raw values so predict
 * needs no bins.
 *
 * Checked on load (artifacts are untrusted): lengths agree, children lie after their
 * node and inside its tree (so every walk ends), split features exist and are of the
 * kind the node says, categorical tables lie inside `catLeft`, every number read is finite.
 */
import { z } from "zod";
import { checkClasses, checkFinite, checkLength, columnSchema, f64, i32, structural, u8, type Check } from "../../state-schemas.js";

/** flags bit: missing values go left. */
export const MISSING_LEFT = 1;
/** flags bit: categorical split (catLeft[catOffset + code] = 1 goes left). */
export const CATEGORICAL = 2;

const shape = z
  .object({
    task: z.enum(["classification", "regression"]),
    loss: z.enum(["squared_error", "absolute_error", "huber", "log_loss"]),
    classes: z.array(z.string()),
    features: z.array(columnSchema),
    /** Raw-score outputs per row: 1, or the classes of a multinomial model. */
    outputs: z.int().min(1),
    baseline: f64,
    iterations: z.int().min(0),
    treeStart: i32,
    feature: i32,
    threshold: f64,
    flags: u8,
    left: i32,
    right: i32,
    value: f64,
    gain: f64,
    catOffset: i32,
    catLeft: u8,
    /** Loss on the training rows before the first iteration and after each (length iterations + 1). */
    trainLoss: f64,
    /** The same on the early-stopping rows, or null when there were none. */
    validationLoss: f64.nullable(),
  })
  .strict();

export type BoosterState = z.infer<typeof shape>;

function check(s: BoosterState, report: Check): void {
  if (s.task === "classification") {
    if (!checkClasses(s.classes, report, 2)) return;
    if (s.loss !== "log_loss") return report("a classifier's loss is log_loss", ["loss"]);
    if (s.outputs !== (s.classes.length > 2 ? s.classes.length : 1)) return report("outputs must be 1 for two classes, else the number of classes", ["outputs"]);
  } else {
    if (s.loss === "log_loss" || s.outputs !== 1 || s.classes.length !== 0) return report("a regressor has one output, no classes and a regression loss", ["loss"]);
  }
  if (!checkLength(s.baseline, s.outputs, "baseline", report) || !checkFinite(s.baseline, "baseline", report)) return;
  const trees = s.iterations * s.outputs;
  if (!checkLength(s.treeStart, trees + 1, "treeStart", report, "iterations × outputs + 1")) return;
  const nodes = s.feature.length;
  for (const [name, a] of [["threshold", s.threshold], ["flags", s.flags], ["left", s.left], ["right", s.right], ["value", s.value], ["gain", s.gain], ["catOffset", s.catOffset]] as const) {
    if (!checkLength(a, nodes, name, report, "nodes")) return;
  }
  if (!checkLength(s.trainLoss, s.iterations + 1, "trainLoss", report, "iterations + 1")) return;
  if (s.validationLoss && !checkLength(s.validationLoss, s.iterations + 1, "validationLoss", report, "iterations + 1")) return;
  if (!checkFinite(s.value, "value", report) || !checkFinite(s.threshold, "threshold", report) || !checkFinite(s.gain, "gain", report)) return;
  if (s.treeStart[0] !== 0 || s.treeStart[trees] !== nodes) return report("treeStart must run from 0 to the node count", ["treeStart"]);
  for (let t = 0; t < trees; t++) {
    const a = s.treeStart[t];
    const b = s.treeStart[t + 1];
    if (!(b > a)) return report(`tree ${t} has no nodes`, ["treeStart", t]);
    for (let i = a; i < b; i++) {
      const f = s.feature[i];
      if (f === -1) continue;
      if (!(f >= 0 && f < s.features.length)) return report(`node ${i} splits on feature ${f}, which does not exist`, ["feature", i]);
      if (!(s.left[i] > i && s.left[i] < b && s.right[i] > i && s.right[i] < b)) return report(`node ${i}'s children must follow it inside its tree`, ["left", i]);
      const col = s.features[f];
      const categorical = (s.flags[i] & CATEGORICAL) !== 0;
      if (categorical !== (col.type === "categorical")) return report(`node ${i}'s split kind does not match feature ${col.name}`, ["flags", i]);
      if (col.type === "categorical" && !(s.catOffset[i] >= 0 && s.catOffset[i] + col.levels.length <= s.catLeft.length)) return report(`node ${i}'s category table lies outside catLeft`, ["catOffset", i]);
    }
  }
}

export const boosterStateSchema = shape.superRefine(structural<BoosterState>(check));
