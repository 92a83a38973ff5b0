/**
 * The topology of a "ladder" tree, shared by the tree-state schema tests and the
 * crafted-artifact battery: level ℓ holds nodes 2ℓ−1 and 2ℓ. In a tree only the
 * left one splits further; `shared` makes both point at the same next pair — a DAG
 * that passes every layout rule (children after their parent, in range) but not
 * "one parent per node".
 */
import { THRESHOLD } from "../../src/models/tree/tree-state.js";

export function ladderTopology(levels: number, shared: boolean): { n: number; kind: Uint8Array<ArrayBuffer>; childStart: Int32Array<ArrayBuffer>; childCount: Int32Array<ArrayBuffer> } {
  const n = 2 * levels + 1;
  const kind = new Uint8Array(n);
  const childStart = new Int32Array(n).fill(-1);
  const childCount = new Int32Array(n);
  const split = (i: number, first: number) => {
    kind[i] = THRESHOLD;
    childStart[i] = first;
    childCount[i] = 2;
  };
  split(0, 1);
  for (let l = 1; l < levels; l++) {
    split(2 * l - 1, 2 * l + 1);
    if (shared) split(2 * l, 2 * l + 1);
  }
  return { n, kind, childStart, childCount };
}
