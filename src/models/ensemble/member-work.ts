/**
 * Growing one member of a spread ensemble fit on a thread other than the fit's own
 * (src/training/member-spread.ts hands the work over): from the work alone, member i is
 * the member the fit would grow itself. Forests only so far.
 */
import type { FitContext, MemberWork } from "../contract.js";
import { memberGrower, type ForestPlan, type SortedColumn } from "./forest-grow.js";

export function growerFor(work: MemberWork, ctx: Pick<FitContext, "signal">): (i: number) => unknown {
  switch (work.kind) {
    case "forest":
      return memberGrower(work.train, work.plan as ForestPlan, ctx, work.prepared as (SortedColumn | null)[] | undefined);
  }
}
