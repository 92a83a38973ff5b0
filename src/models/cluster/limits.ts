/**
 * Rows the O(n²)-memory agglomerative path accepts: its condensed distance matrix holds
 * n(n − 1)/2 doubles, 1.6 GB at 20,000 rows (under the default 4 GiB job budget with the
 * data beside it). Single linkage (Prim's minimum spanning tree, O(n) memory) has no such limit.
 */
export const AGNES_MAX_ROWS = 20_000;

/** Rows kmedoids (PAM) accepts: it keeps the full n × n distance matrix, 800 MB at 10,000 rows. */
export const KMEDOIDS_MAX_ROWS = 10_000;
