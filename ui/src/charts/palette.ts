/** Colours shared by the charts: distinguishable, and readable on white. */
export const PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];

export function colour(i: number): string {
  return i < 0 ? "#999999" : PALETTE[i % PALETTE.length];
}
