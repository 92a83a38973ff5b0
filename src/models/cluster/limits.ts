/**
 * Rows the O(n²)-memory agglomerative path accepts: its condensed distance matrix holds
 * n(n − 1)/2 doubles, 1.6 GB at 20,000 rows (under the default 4 GiB job budget with the
 * data beside it). Single linkage (Prim's minimum spanning tree, O(n) memory) has no such limit.
 */
export const AGNES_MAX_ROWS = 20_000;

/** Rows kmedoids (PAM) accepts: it keeps the full n × n distance matrix, 800 MB at 10,000 rows. */
export const KMEDOIDS_MAX_ROWS = 10_000;

/**
 * Rows diana accepts: it keeps the condensed n × n distance matrix (100 MB at 5,000 rows), and
 * its splinter-group splits cost O(m²) each for a cluster of m rows, so a chain of lopsided
 * splits is O(n³): 5,000 rows keep that worst case to minutes, not hours.
 */
export const DIANA_MAX_ROWS = 5_000;
