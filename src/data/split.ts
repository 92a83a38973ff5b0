/**
 * Seeded train/test splits as row indices. Every index array is sorted ascending,
 * so training always sees rows in dataset order and a fit depends only on which
 * rows were chosen (and the seed), not on the order a shuffle left them in.
 *
 * Stratified splits shuffle each class's rows, then deal them to folds in turn,
 * class after class, continuing the count across classes: every fold then holds
 * floor or ceil of n_c / k rows of class c, and fold sizes differ by at most one.
 * Without stratification the whole permutation is dealt the same way.
 *
 * Parameter errors are DataErrors with the request path (`validation.k`, …).
 */
import { DataError } from "./errors.js";
import { permutation, shuffleInPlace, type Rng } from "./random.js";

export interface Split {
  readonly train: Int32Array;
  readonly test: Int32Array;
}

export interface HoldoutOptions {
  /** Share of rows held out, in (0, 1). */
  readonly testSize: number;
  /** Class code per row; the split then keeps each class's share on both sides. */
  readonly stratify?: Int32Array;
}

export interface KfoldOptions {
  readonly k: number;
  readonly stratify?: Int32Array;
}

export interface RepeatedKfoldOptions extends KfoldOptions {
  readonly repeats: number;
}

/**
 * Without stratification the test side has round(testSize · n) rows, clamped to
 * [1, n − 1]. With it, each class with n_c ≥ 2 rows gives round(testSize · n_c) of
 * them, clamped to [1, n_c − 1]; a class with a single row stays in training (a
 * class the model never saw cannot be predicted, so testing on it only adds noise).
 */
export function holdout(n: number, options: HoldoutOptions, rng: Rng): Split {
  checkRows(n, 2);
  const { testSize, stratify } = options;
  if (!(Number.isFinite(testSize) && testSize > 0 && testSize < 1)) {
    throw new DataError(`test_size must be strictly between 0 and 1, not ${testSize}`, "validation.test_size");
  }
  const inTest = new Uint8Array(n);
  if (stratify) {
    for (const rows of shuffledGroups(n, stratify, rng)) {
      const size = rows.length;
      const take = size < 2 ? 0 : clamp(Math.round(testSize * size), 1, size - 1);
      for (let i = 0; i < take; i++) inTest[rows[i]] = 1;
    }
  } else {
    const order = permutation(n, rng);
    const take = clamp(Math.round(testSize * n), 1, n - 1);
    for (let i = 0; i < take; i++) inTest[order[i]] = 1;
  }
  const split = partition(inTest, 1);
  if (split.test.length === 0 || split.train.length === 0) {
    throw new DataError(
      "a stratified holdout needs a class with at least 2 rows (each class of a single row stays in training); too few rows to hold any out",
      "validation.test_size",
    );
  }
  return split;
}

/** k folds; fold f's test rows are the f-th share, its training rows all the others. */
export function kfold(n: number, options: KfoldOptions, rng: Rng): Split[] {
  const { k, stratify } = options;
  if (!Number.isInteger(k) || k < 2) throw new DataError(`k must be an integer of at least 2, not ${k}`, "validation.k");
  if (k > n) throw new DataError(`k = ${k} folds need at least ${k} rows, and there are ${n}`, "validation.k");
  const fold = new Int32Array(n);
  const groups = stratify ? shuffledGroups(n, stratify, rng) : [permutation(n, rng)];
  let dealt = 0;
  for (const rows of groups) for (const row of rows) fold[row] = dealt++ % k;
  return Array.from({ length: k }, (_, f) => {
    const test = new Uint8Array(n);
    for (let i = 0; i < n; i++) test[i] = fold[i] === f ? 1 : 0;
    return partition(test, 1);
  });
}

/** `repeats` independent k-fold partitions, repetition after repetition (k · repeats splits). */
export function repeatedKfold(n: number, options: RepeatedKfoldOptions, rng: Rng): Split[] {
  const { repeats } = options;
  if (!Number.isInteger(repeats) || repeats < 1) throw new DataError(`repeats must be a positive integer, not ${repeats}`, "validation.repeats");
  const splits: Split[] = [];
  for (let r = 0; r < repeats; r++) splits.push(...kfold(n, options, rng.fork()));
  return splits;
}

/** 5 × 2-fold cross-validation (Dietterich): splits 2r and 2r + 1 are repetition r's two halves. */
export function fiveByTwo(n: number, options: { readonly stratify?: Int32Array }, rng: Rng): Split[] {
  return repeatedKfold(n, { k: 2, repeats: 5, stratify: options.stratify }, rng);
}

export function leaveOneOut(n: number): Split[] {
  checkRows(n, 2);
  return Array.from({ length: n }, (_, i) => {
    const train = new Int32Array(n - 1);
    for (let r = 0, t = 0; r < n; r++) if (r !== i) train[t++] = r;
    return { train, test: Int32Array.of(i) };
  });
}

const MAX_BOOTSTRAP_DRAWS = 100;

/**
 * `rounds` bootstrap samples: n rows drawn with replacement for training (repeats
 * adjacent, ascending), the rows never drawn (out of bag, about n/e of them) for
 * testing. A draw that leaves nothing out of bag is drawn again from the same
 * generator, so the result stays a function of the seed.
 */
export function bootstrap(n: number, rounds: number, rng: Rng): Split[] {
  checkRows(n, 2);
  if (!Number.isInteger(rounds) || rounds < 1) throw new DataError(`rounds must be a positive integer, not ${rounds}`, "validation.rounds");
  const splits: Split[] = [];
  const counts = new Int32Array(n);
  for (let r = 0; r < rounds; r++) {
    let outOfBag = 0;
    for (let attempt = 0; outOfBag === 0; attempt++) {
      if (attempt === MAX_BOOTSTRAP_DRAWS) throw new DataError(`too few rows (${n}) to leave any out of a bootstrap sample`, "validation.rounds");
      counts.fill(0);
      for (let i = 0; i < n; i++) counts[rng.int(n)]++;
      outOfBag = 0;
      for (let i = 0; i < n; i++) if (counts[i] === 0) outOfBag++;
    }
    const train = new Int32Array(n);
    const test = new Int32Array(outOfBag);
    for (let i = 0, t = 0, o = 0; i < n; i++) {
      if (counts[i] === 0) test[o++] = i;
      for (let c = 0; c < counts[i]; c++) train[t++] = i;
    }
    splits.push({ train, test });
  }
  return splits;
}

/** Each class's rows (classes in ascending code order), shuffled. */
function shuffledGroups(n: number, stratify: Int32Array, rng: Rng): Int32Array[] {
  if (stratify.length !== n) throw new Error(`stratify has ${stratify.length} entries for ${n} rows`);
  const sizes = new Map<number, number>();
  for (let i = 0; i < n; i++) sizes.set(stratify[i], (sizes.get(stratify[i]) ?? 0) + 1);
  const classes = [...sizes.keys()].sort((a, b) => a - b);
  const groups = new Map(classes.map((c) => [c, { rows: new Int32Array(sizes.get(c)!), filled: 0 }]));
  for (let i = 0; i < n; i++) {
    const g = groups.get(stratify[i])!;
    g.rows[g.filled++] = i;
  }
  return classes.map((c) => shuffleInPlace(groups.get(c)!.rows, rng));
}

/** Rows flagged `mark` → test, the others → train, both ascending. */
function partition(flags: Uint8Array, mark: number): Split {
  let testSize = 0;
  for (let i = 0; i < flags.length; i++) if (flags[i] === mark) testSize++;
  const test = new Int32Array(testSize);
  const train = new Int32Array(flags.length - testSize);
  for (let i = 0, a = 0, b = 0; i < flags.length; i++) {
    if (flags[i] === mark) test[a++] = i;
    else train[b++] = i;
  }
  return { train, test };
}

function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}

function checkRows(n: number, min: number): void {
  if (!Number.isInteger(n) || n < min) throw new DataError(`splitting needs at least ${min} rows, and there ${n === 1 ? "is" : "are"} ${n}`, "validation");
}
