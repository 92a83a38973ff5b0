/**
 * Rows the n × n projections accept. Kernel PCA centres and eigendecomposes the n × n
 * kernel matrix densely (ml-matrix's EVD: the matrix, its eigenvectors and work copies,
 * ≈ 4 × 32 MB at 2,000 rows, and O(n³) time: measured 109 s at 2,000 rows × 5 features on a
 * 2-core machine under load 10, while a 10,000-row transform took 1 s). Isomap does the same
 * to its geodesic distances and keeps them (n × n) in the model, as scikit-learn keeps
 * dist_matrix_, since placing a new row needs its geodesic distance to every training
 * row: 1,000 rows make an 8 MB state (fit measured at 15 s on the same machine). Above the
 * limit the fit refuses (422 unusable_input).
 */
export const KERNEL_PCA_MAX_ROWS = 2_000;
export const ISOMAP_MAX_ROWS = 1_000;

/** Classical MDS's landmarks: B is landmarks × landmarks and eigendecomposed densely (2,000² doubles: 32 MB per copy). */
export const MDS_MAX_LANDMARKS = 2_000;
