/**
 * Isomap's graph: each training row joined to its k nearest rows (the shared neighbour
 * index, src/data/neighbors/) by an edge as long as their Euclidean distance, undirected;
 * shortest paths by Dijkstra from every row (the graph is sparse: 2nk edges at most).
 *
 * A graph of several connected components is completed as scikit-learn 1.2 does
 * (utils/graph.py _fix_connected_components): every pair of components is joined by
 * one edge between their closest pair of rows, so every geodesic is finite.
 */
import { buildIndex, euclidean, type NeighborIndex } from "../../data/neighbors/index.js";
import { throwIfAborted, type AbortFlag } from "../contract.js";

export function neighbourIndex(X: Float64Array, n: number, p: number): NeighborIndex {
  return buildIndex(X, n, p, { algorithm: "auto", leafSize: 30, metric: euclidean });
}

interface Graph {
  readonly adjacency: number[][];
  readonly weights: number[][];
}

function addEdge(g: Graph, a: number, b: number, w: number): void {
  g.adjacency[a].push(b);
  g.weights[a].push(w);
  g.adjacency[b].push(a);
  g.weights[b].push(w);
}

/** The k-nearest-neighbour graph (a row is not its own neighbour), as kneighbors_graph(mode="distance"). */
function knnGraph(index: NeighborIndex, X: Float64Array, n: number, k: number): Graph {
  const g: Graph = { adjacency: Array.from({ length: n }, () => []), weights: Array.from({ length: n }, () => []) };
  const { distances, indices } = index.kneighbors(X, n, Math.min(n, k + 1));
  const width = Math.min(n, k + 1);
  for (let i = 0; i < n; i++) {
    // Drop the row itself (normally first, at distance 0); when more duplicates of it than k crowd it out, the first is dropped (scikit-learn's rule).
    let self = -1;
    for (let t = 0; t < width; t++) if (indices[i * width + t] === i) self = t;
    let kept = 0;
    for (let t = 0; t < width && kept < k; t++) {
      if (t === self || (self < 0 && t === 0)) continue;
      addEdge(g, i, indices[i * width + t], distances[i * width + t]);
      kept++;
    }
  }
  return g;
}

/** Connected-component label of every row (by graph search from row 0, 1, …) and their count. */
function components(g: Graph, n: number): { labels: Int32Array; count: number } {
  const labels = new Int32Array(n).fill(-1);
  let count = 0;
  const stack: number[] = [];
  for (let s = 0; s < n; s++) {
    if (labels[s] >= 0) continue;
    labels[s] = count;
    stack.push(s);
    while (stack.length > 0) {
      const a = stack.pop()!;
      for (const b of g.adjacency[a]) {
        if (labels[b] < 0) {
          labels[b] = count;
          stack.push(b);
        }
      }
    }
    count++;
  }
  return { labels, count };
}

function joinComponents(g: Graph, X: Float64Array, n: number, p: number, labels: Int32Array, count: number): void {
  const members = Array.from({ length: count }, (): number[] => []);
  for (let i = 0; i < n; i++) members[labels[i]].push(i);
  for (let a = 0; a < count; a++) {
    for (let b = 0; b < a; b++) {
      let best = Infinity;
      let bi = -1;
      let bj = -1;
      for (const i of members[a]) {
        for (const j of members[b]) {
          let s = 0;
          for (let t = 0; t < p; t++) s += (X[i * p + t] - X[j * p + t]) ** 2;
          if (s < best) {
            best = s;
            bi = i;
            bj = j;
          }
        }
      }
      addEdge(g, bi, bj, Math.sqrt(best));
    }
  }
}

/** Shortest path lengths from `source` to every row, into `out` (n). */
function dijkstra(g: Graph, source: number, out: Float64Array, heap: Int32Array, position: Int32Array): void {
  const n = out.length;
  out.fill(Infinity);
  position.fill(-1);
  out[source] = 0;
  let size = 0;
  const swap = (a: number, b: number) => {
    const t = heap[a];
    heap[a] = heap[b];
    heap[b] = t;
    position[heap[a]] = a;
    position[heap[b]] = b;
  };
  const up = (at: number) => {
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (out[heap[parent]] <= out[heap[at]]) break;
      swap(at, parent);
      at = parent;
    }
  };
  const down = (at: number) => {
    for (;;) {
      const l = 2 * at + 1;
      if (l >= size) return;
      const c = l + 1 < size && out[heap[l + 1]] < out[heap[l]] ? l + 1 : l;
      if (out[heap[at]] <= out[heap[c]]) return;
      swap(at, c);
      at = c;
    }
  };
  heap[0] = source;
  position[source] = 0;
  size = 1;
  const done = new Uint8Array(n);
  while (size > 0) {
    const a = heap[0];
    size--;
    if (size > 0) {
      heap[0] = heap[size];
      position[heap[0]] = 0;
      down(0);
    }
    position[a] = -1;
    done[a] = 1;
    const adj = g.adjacency[a];
    const w = g.weights[a];
    for (let t = 0; t < adj.length; t++) {
      const b = adj[t];
      if (done[b]) continue;
      const via = out[a] + w[t];
      if (via < out[b]) {
        out[b] = via;
        if (position[b] < 0) {
          heap[size] = b;
          position[b] = size;
          size++;
        }
        up(position[b]);
      }
    }
  }
}

/** n × n geodesic distances over the k-nearest-neighbour graph of the rows (completed when disconnected), and how many components it had. */
export function geodesicDistances(X: Float64Array, n: number, p: number, k: number, signal?: AbortFlag): { distances: Float64Array<ArrayBuffer>; components: number } {
  const g = knnGraph(neighbourIndex(X, n, p), X, n, k);
  const { labels, count } = components(g, n);
  if (count > 1) joinComponents(g, X, n, p, labels, count);
  const distances = new Float64Array(n * n);
  const heap = new Int32Array(n);
  const position = new Int32Array(n);
  for (let s = 0; s < n; s++) {
    if (s % 64 === 0) throwIfAborted(signal);
    dijkstra(g, s, distances.subarray(s * n, (s + 1) * n), heap, position);
  }
  return { distances, components: count };
}
