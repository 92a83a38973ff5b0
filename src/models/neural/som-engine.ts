/**
 * The self-organising map's engine (seed 003, the book's §5.5.4 SOM 网络): a grid of units,
 * each with a weight vector in input space. One step takes a random training row x, finds its
 * best-matching unit (BMU: the nearest weight vector, squared Euclidean, ties to the lowest
 * unit) and pulls every unit u towards x by η(t)·h(u)·(x − w_u), where
 * h(u) = exp(−g(u, BMU)² / (2σ(t)²)) is a Gaussian of the distance g between the two units'
 * positions on the grid. η and σ decay exponentially from their initial to their final values
 * over the run: v(t) = v₀ · (v₁ / v₀)^(t / (T − 1)).
 *
 * Positions: rectangular grids put unit (r, c) at (r, c); hexagonal grids shift odd rows by ½
 * and space rows √3/2 apart, so that each inner unit has six neighbours at distance 1.
 */
import type { Rng } from "../../data/random.js";
import { throwIfAborted, type AbortFlag } from "../contract.js";

export type Topology = "rectangular" | "hexagonal";

export interface Grid {
  readonly rows: number;
  readonly cols: number;
  readonly topology: Topology;
}

/** Row-major positions (units × 2: the row coordinate, then the column coordinate). */
export function unitPositions(grid: Grid): Float64Array {
  const units = grid.rows * grid.cols;
  const out = new Float64Array(2 * units);
  const hex = grid.topology === "hexagonal";
  for (let r = 0; r < grid.rows; r++) {
    for (let c = 0; c < grid.cols; c++) {
      const u = r * grid.cols + c;
      out[2 * u] = hex ? (r * Math.sqrt(3)) / 2 : r;
      out[2 * u + 1] = hex && r % 2 === 1 ? c + 0.5 : c;
    }
  }
  return out;
}

/** The unit nearest to X[row] (squared Euclidean; ties: the lowest unit) and its squared distance. */
export function bestMatchingUnit(W: Float64Array, units: number, X: Float64Array, row: number, d: number): { unit: number; distance: number } {
  let best = 0;
  let bestD = Infinity;
  for (let u = 0; u < units; u++) {
    let s = 0;
    for (let j = 0; j < d; j++) {
      const t = X[row * d + j] - W[u * d + j];
      s += t * t;
    }
    if (s < bestD) {
      bestD = s;
      best = u;
    }
  }
  return { unit: best, distance: bestD };
}

export interface SomSchedule {
  readonly iterations: number;
  readonly learningRate: readonly [number, number];
  readonly sigma: readonly [number, number];
}

function decayed([start, end]: readonly [number, number], t: number, T: number): number {
  return T <= 1 ? start : start * (end / start) ** (t / (T - 1));
}

/** Trains W (units × d, already initialised) in place. */
export function trainSom(W: Float64Array, grid: Grid, X: Float64Array, n: number, d: number, schedule: SomSchedule, rng: Rng, signal?: AbortFlag, progress?: (f: number) => void): void {
  const units = grid.rows * grid.cols;
  const P = unitPositions(grid);
  const T = schedule.iterations;
  for (let t = 0; t < T; t++) {
    if ((t & 1023) === 0) {
      throwIfAborted(signal);
      progress?.(t / T);
    }
    const row = rng.int(n);
    const bmu = bestMatchingUnit(W, units, X, row, d).unit;
    const eta = decayed(schedule.learningRate, t, T);
    const sigma = decayed(schedule.sigma, t, T);
    const inv = 1 / (2 * sigma * sigma);
    const br = P[2 * bmu];
    const bc = P[2 * bmu + 1];
    for (let u = 0; u < units; u++) {
      const g2 = (P[2 * u] - br) ** 2 + (P[2 * u + 1] - bc) ** 2;
      const step = eta * Math.exp(-g2 * inv);
      // Units this far out would move by less than a rounding error of their weights.
      if (step < 1e-16) continue;
      for (let j = 0; j < d; j++) W[u * d + j] += step * (X[row * d + j] - W[u * d + j]);
    }
  }
}

/**
 * The U-matrix: for each unit, the mean Euclidean distance between its weight vector and those
 * of its grid neighbours (units at grid distance 1: 4 on a rectangular grid, 6 on a hexagonal
 * one, fewer at the edges). High values mark the borders between clusters.
 */
export function uMatrix(W: Float64Array, grid: Grid, d: number): Float64Array {
  const units = grid.rows * grid.cols;
  const P = unitPositions(grid);
  const out = new Float64Array(units);
  for (let u = 0; u < units; u++) {
    let sum = 0;
    let count = 0;
    // Neighbours are within one row and one column (a hexagonal row's shift is ½).
    const r0 = Math.floor(u / grid.cols);
    const c0 = u % grid.cols;
    for (let r = Math.max(0, r0 - 1); r <= Math.min(grid.rows - 1, r0 + 1); r++) {
      for (let c = Math.max(0, c0 - 1); c <= Math.min(grid.cols - 1, c0 + 1); c++) {
        const v = r * grid.cols + c;
        if (v === u) continue;
        const g2 = (P[2 * u] - P[2 * v]) ** 2 + (P[2 * u + 1] - P[2 * v + 1]) ** 2;
        if (g2 > 1 + 1e-9) continue;
        let s = 0;
        for (let j = 0; j < d; j++) s += (W[u * d + j] - W[v * d + j]) ** 2;
        sum += Math.sqrt(s);
        count++;
      }
    }
    out[u] = count > 0 ? sum / count : 0;
  }
  return out;
}
