/**
 * The logistic loss's per-row terms for a block of scores, two at a time, as a WebAssembly SIMD
 * function written out as bytes (`data/wasm-bytes.ts`): the two transcendental calls per row
 * of the logistic loss (logistic-loss.ts), which cost as much as both matrix–vector products.
 *
 * Bit for bit the values Math.exp and Math.log1p give: V8 computes them with fdlibm's
 * algorithms (e_exp.c, s_log1p.c), and this evaluates the same IEEE operations in the same
 * order on both lanes, replacing fdlibm's branches on the argument's range by computing
 * each branch's result and selecting per lane. That holds on the range it is used for,
 * 1e-4 ≤ |s| ≤ 700 (the caller uses Math.exp and Math.log1p elsewhere, and for NaN): below
 * it fdlibm's log1p takes a branch for 1 + e within 2^-20 of 2 that is not written out
 * here, above it exp's subnormal scaling. The test compares millions of values with Math's.
 *
 * expLog1p(s, len, prob, term): for i < len (rounded up to even: the memory has a double of
 * room after each array) with e = exp(−|s[i]|), prob[i] = (s ≥ 0 ? 1 : e)/(1 + e) and
 * term[i] = (s > 0 ? s : 0) + log1p(e) — the same operations as logistic-loss.ts's
 * JavaScript, so the same doubles.
 */
import { compileModule, F64X2_ADD, F64X2_MUL, F64X2_SUB, functionBody, get, I32, I32_ADD, I32_LT_U, I32_SHL, i32c, instantiate, memoryModule, set, simd, tee, V128, v128Load, v128Store } from "../../data/wasm-bytes.js";

const LOOP = [0x03, 0x40];
const END = [0x0b];
const brIf = (depth: number) => [0x0d, depth];

type Code = number[];
const op = (code: number) => (...args: Code[]): Code => [...args.flat(), ...simd(code)];
const add = op(F64X2_ADD);
const sub = op(F64X2_SUB);
const mul = op(F64X2_MUL);
const div = op(0xf3);
const abs = op(0xec);
const neg = op(0xed);
const lt = op(0x49);
const gt = op(0x4a);
const ge = op(0x4c);
const trunc = op(0x7a);
/** Lanes of a where mask is set, of b elsewhere. */
const select = (a: Code, b: Code, mask: Code): Code => [...a, ...b, ...mask, ...simd(0x52)];
/** 2^k from k (an integral double in the normal exponent range): its bits are (k + 1023) << 52. */
const pow2 = (k: Code): Code => [...k, ...simd(0xfc), ...simd(0xc7), ...bits(1023n), ...simd(0xce), ...i32c(52), ...simd(0xcb)];

/** v128.const of two equal 64-bit patterns. */
function bits(v: bigint): Code {
  return simd(0x0c, ...new Uint8Array(new BigUint64Array([v, v]).buffer));
}
/** A double given by its bits, as fdlibm gives its constants. */
const hex = (v: bigint): Code => bits(v);
/** The double whose high word is `hi` and low word 0, as fdlibm's range tests on the high word compare. */
const highWord = (hi: number): Code => bits(BigInt(hi) << 32n);
const num = (v: number): Code => simd(0x0c, ...new Uint8Array(new Float64Array([v, v]).buffer));

// fdlibm e_exp.c
const LN2_HI = hex(0x3fe62e42fee00000n);
const LN2_LO = hex(0x3dea39ef35793c76n);
const INV_LN2 = hex(0x3ff71547652b82fen);
const P = [0x3fc555555555553en, 0xbf66c16c16bebd93n, 0x3f11566aaf25de2cn, 0xbebbbd41c5d26bf1n, 0x3e66376972bea4d0n].map(hex);
// fdlibm s_log1p.c
const LP = [0x3fe5555555555593n, 0x3fd999999997fa04n, 0x3fd2492494229359n, 0x3fcc71c51d8e78afn, 0x3fc7466496cb03den, 0x3fc39a09d078c69fn, 0x3fc2f112df3e5244n].map(hex);

// Params: 0 s, 1 len, 2 e, 3 l. Locals: 4 i, 5 end (i32); 6 a, 7 x, 8 k, 9 hi, 10 lo, 11 r, 12 t, 13 c, 14 y, 15 ev, 16 f, 17 hfsq, 18 sv, 19 R, 20 cc, 21 high (v128).
function body(): number[] {
  const code: number[] = [];
  const emit = (...parts: Code[]) => parts.forEach((p) => code.push(...p));
  const [A, X, K, HI, LO, RR, T, C, Y, EV, F, HFSQ, S, R, CC, HIGH, SCORE] = [6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22];
  const at = (base: number) => [...get(base), ...get(4), ...I32_ADD];
  emit(get(1), i32c(3), I32_SHL, set(5), i32c(0), set(4));
  emit(LOOP);
  emit(at(0), v128Load(0), tee(SCORE), abs([]), tee(A), neg([]), set(X));
  // exp(x), x = −a ≤ 0. k: 0 for a ≤ ln2/2, −1 up to 1.5·ln2, else (int)(x/ln2 − 1/2) (toward zero).
  emit(select(trunc(sub(mul(INV_LN2, get(X)), num(0.5))), select(num(-1), num(0), ge(get(A), highWord(0x3fd62e43))), ge(get(A), highWord(0x3ff0a2b2))), set(K));
  // hi = x − k·ln2_hi, lo = k·ln2_lo, r = hi − lo (for k = 0: r = x, lo = 0, and fdlibm's k = 0 formula equals the general one).
  emit(sub(get(X), mul(get(K), LN2_HI)), set(HI), mul(get(K), LN2_LO), set(LO), sub(get(HI), get(LO)), set(RR));
  emit(mul(get(RR), get(RR)), set(T));
  let poly: Code = P[4];
  for (let j = 3; j >= 0; j--) poly = add(P[j], mul(get(T), poly));
  emit(sub(get(RR), mul(get(T), poly)), set(C));
  // y = 1 − ((lo − r·c/(2 − c)) − hi), times 2^k; 1 + x below 2^-28.
  emit(sub(num(1), sub(sub(get(LO), div(mul(get(RR), get(C)), sub(num(2), get(C)))), get(HI))), set(Y));
  emit(select(add(num(1), get(X)), mul(get(Y), pow2(get(K))), lt(get(A), highWord(0x3e300000))), set(EV));
  // The probability: (s ≥ 0 ? 1 : e)/(1 + e).
  emit(at(2), div(select(num(1), get(EV), ge(get(SCORE), num(0))), add(num(1), get(EV))), v128Store(0));
  // log1p(e), 0 < e ≤ 1. From e ≥ 0x3fda827a·2^32 (high): u = 1 + e, c = (e − (u − 1))/u, f = u/2 − 1, k = 1; below: f = e, k = 0.
  emit(ge(get(EV), highWord(0x3fda827a)), set(HIGH));
  emit(add(num(1), get(EV)), set(Y)); // u
  emit(div(sub(get(EV), sub(get(Y), num(1))), get(Y)), set(CC));
  emit(select(sub(mul(get(Y), num(0.5)), num(1)), get(EV), get(HIGH)), set(F));
  emit(mul(mul(num(0.5), get(F)), get(F)), set(HFSQ));
  emit(div(get(F), add(num(2), get(F))), set(S));
  emit(mul(get(S), get(S)), set(T)); // z
  let lp: Code = LP[6];
  for (let j = 5; j >= 0; j--) lp = add(LP[j], mul(get(T), lp));
  emit(mul(get(T), lp), set(R));
  emit(mul(get(S), add(get(HFSQ), get(R))), set(C)); // s·(hfsq + R)
  const low = sub(get(F), sub(get(HFSQ), get(C)));
  const high = sub(LN2_HI, sub(sub(get(HFSQ), add(get(C), add(LN2_LO, get(CC)))), get(F)));
  emit(select(high, low, get(HIGH)), set(Y));
  // Below 2^-29: e − e²/2, and e itself below 2^-54.
  emit(select(select(get(EV), sub(get(EV), mul(mul(get(EV), get(EV)), num(0.5))), lt(get(EV), highWord(0x3c900000))), get(Y), lt(get(EV), highWord(0x3e200000))), set(Y));
  // The loss term but for −y·s: (s > 0 ? s : 0) + log1p(e).
  emit(at(3), add(select(get(SCORE), num(0), gt(get(SCORE), num(0))), get(Y)), v128Store(0));
  emit(get(4), i32c(16), I32_ADD, tee(4), get(5), I32_LT_U, brIf(0), END);
  return functionBody([[2, I32], [17, V128]], code);
}

const MODULE = compileModule(memoryModule([[0x60, 4, I32, I32, I32, I32, 0]], [{ name: "expLog1p", type: 0, body: body() }]));

/** The range of |s| on which the kernel equals Math.exp and Math.log1p bit for bit (see above). */
export const EXP_LOG1P_MIN = 1e-4;
export const EXP_LOG1P_MAX = 700;

/**
 * The per-row terms of the logistic loss at scores s: prob[i] = σ(s[i]) as
 * (s ≥ 0 ? 1 : e)/(1 + e) and term[i] = (s > 0 ? s : 0) + log1p(e), e = Math.exp(−|s[i]|),
 * for i < len — loss w·(term − y·s) and residual w·(prob − y) without a branch on the sign.
 */
export type LogisticTerms = (s: Float64Array, len: number, prob: Float64Array, term: Float64Array) => void;

/** One row's terms with Math.exp and Math.log1p: the reference, and the rows outside the kernel's range. */
function termsOf(si: number, prob: Float64Array, term: Float64Array, i: number): void {
  const e = Math.exp(-Math.abs(si));
  prob[i] = si >= 0 ? 1 / (1 + e) : e / (1 + e);
  term[i] = (si > 0 ? si : 0) + Math.log1p(e);
}

/**
 * LogisticTerms for blocks of up to `rows` scores: the kernel, with Math.exp and Math.log1p for
 * the rows outside its range; Math's alone without WebAssembly SIMD. The values are the same.
 */
export function createLogisticTerms(rows: number): LogisticTerms {
  const padded = rows + 2;
  const instance = MODULE ? instantiate(MODULE, 3 * 8 * padded) : null;
  if (!instance) {
    return (s, len, prob, term) => {
      for (let i = 0; i < len; i++) termsOf(s[i], prob, term, i);
    };
  }
  const memory = new Float64Array(instance.memory.buffer);
  const run = instance.exports.expLog1p as (s: number, len: number, prob: number, term: number) => void;
  return (s, len, prob, term) => {
    memory.set(s.subarray(0, len), 0);
    run(0, len, 8 * padded, 16 * padded);
    prob.set(memory.subarray(padded, padded + len));
    term.set(memory.subarray(2 * padded, 2 * padded + len));
    for (let i = 0; i < len; i++) {
      const a = Math.abs(s[i]);
      if (!(a >= EXP_LOG1P_MIN && a <= EXP_LOG1P_MAX)) termsOf(s[i], prob, term, i);
    }
  };
}
