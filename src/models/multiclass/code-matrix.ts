/**
 * Every strategy is a code matrix M (k classes × m binary problems, row-major
 * Int8Array) with entries +1 (the class is on the positive side of problem j),
 * −1 (negative side) or 0 (problem j does not see the class) — so one training
 * loop serves OvR, OvO and ECOC alike (Allwein, Schapire & Singer 2000).
 */
import type { Rng } from "../../data/random.js";
import { UnusableInputError } from "../contract.js";

export interface CodeMatrix {
  k: number;
  m: number;
  code: Int8Array;
}

/** Problem j: class j against the rest. */
export function oneVsRest(k: number): CodeMatrix {
  const code = new Int8Array(k * k).fill(-1);
  for (let c = 0; c < k; c++) code[c * k + c] = 1;
  return { k, m: k, code };
}

/** Problems in libsvm's order (0,1), (0,2), …, (1,2), …; the higher class index is the positive side. */
export function oneVsOne(k: number): CodeMatrix {
  const m = (k * (k - 1)) / 2;
  const code = new Int8Array(k * m);
  let j = 0;
  for (let a = 0; a < k; a++) {
    for (let b = a + 1; b < k; b++) {
      code[a * m + j] = -1;
      code[b * m + j] = 1;
      j++;
    }
  }
  return { k, m, code };
}

/** The largest k for the exhaustive code (2^(k−1) − 1 problems: 511 at k = 10). */
export const EXHAUSTIVE_MAX_CLASSES = 10;

/**
 * Dietterich & Bakiri's exhaustive code: every split of the classes into two
 * non-empty sides once. Row 0 is all +1; row c alternates runs of 2^(k−c−1).
 */
export function exhaustiveCode(k: number): CodeMatrix {
  if (k > EXHAUSTIVE_MAX_CLASSES) {
    throw new UnusableInputError(`the exhaustive code needs 2^(k−1)−1 binary problems; use code_matrix "random" above ${EXHAUSTIVE_MAX_CLASSES} classes (got ${k})`);
  }
  const m = 2 ** (k - 1) - 1;
  const code = new Int8Array(k * m);
  for (let j = 0; j < m; j++) code[j] = 1;
  for (let c = 1; c < k; c++) {
    const run = 2 ** (k - c - 1);
    for (let j = 0; j < m; j++) code[c * m + j] = Math.floor(j / run) % 2 === 0 ? -1 : 1;
  }
  return { k, m, code };
}

/**
 * A seeded random ±1 code with m columns, each column splitting the classes into two
 * non-empty sides and no two rows equal (else those classes could not be told apart).
 */
export function randomCode(k: number, m: number, rng: Rng): CodeMatrix {
  const code = new Int8Array(k * m);
  for (let attempt = 0; attempt < 1000; attempt++) {
    for (let j = 0; j < m; j++) {
      let pos = 0;
      do {
        pos = 0;
        for (let c = 0; c < k; c++) {
          const v = rng.next() < 0.5 ? -1 : 1;
          code[c * m + j] = v;
          if (v === 1) pos++;
        }
      } while (pos === 0 || pos === k);
    }
    if (rowsDistinct(code, k, m)) return { k, m, code };
  }
  throw new UnusableInputError(`no random code of ${m} columns tells ${k} classes apart; raise code_size`);
}

function rowsDistinct(code: Int8Array, k: number, m: number): boolean {
  for (let a = 0; a < k; a++) {
    for (let b = a + 1; b < k; b++) {
      let same = true;
      for (let j = 0; j < m && same; j++) same = code[a * m + j] === code[b * m + j];
      if (same) return false;
    }
  }
  return true;
}
