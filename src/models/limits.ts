import { z } from "zod";
import { groupDigits } from "../data/group-digits.js";

/**
 * Bounds shared by parameter schemas whose value counts columns (features to
 * consider, keep or drop, components to produce). Such a count never needs to
 * exceed the widest table the service can hold usefully: XIGUA_MAX_CELLS
 * (default 50M cells) over the fewest rows worth learning from (~500) is 100,000
 * columns. Larger values are refused by the schema before anything is sized by them.
 */
export const MAX_FEATURE_COUNT = 100_000;

/** An optional column count (null: the option's own default), bounded by MAX_FEATURE_COUNT, with its documented limit. */
export function columnCountParam(what: string, also: string) {
  return z
    .number()
    .int()
    .min(1)
    .max(MAX_FEATURE_COUNT)
    .nullable()
    .default(null)
    .describe(`${what} At most ${groupDigits(MAX_FEATURE_COUNT)} (and never above ${also}).`);
}
