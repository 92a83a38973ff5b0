/**
 * One-dimensional minimisation as SciPy's optimize.brent does it (bracket search
 * from two starting points, then Brent's parabolic/golden-section method, tol
 * 1.48e-8): scikit-learn's PowerTransformer finds its λ this way, so following the
 * same steps lands on the same local minimum.
 */
const GOLD = 1.618034;
const CG = 0.381966;
const VERY_SMALL = 1e-21;
const GROW_LIMIT = 110;
const MAX_BRACKET = 1000;

interface Bracket {
  xa: number;
  xb: number;
  xc: number;
  fb: number;
}

function bracket(f: (x: number) => number, xa0: number, xb0: number): Bracket {
  let xa = xa0;
  let xb = xb0;
  let fa = f(xa);
  let fb = f(xb);
  if (fa < fb) {
    [xa, xb] = [xb, xa];
    [fa, fb] = [fb, fa];
  }
  let xc = xb + GOLD * (xb - xa);
  let fc = f(xc);
  for (let iter = 0; fc < fb; iter++) {
    if (iter > MAX_BRACKET) throw new Error("no bracket found for the minimum");
    const tmp1 = (xb - xa) * (fb - fc);
    const tmp2 = (xb - xc) * (fb - fa);
    const val = tmp2 - tmp1;
    const denom = Math.abs(val) < VERY_SMALL ? 2 * VERY_SMALL : 2 * val;
    let w = xb - ((xb - xc) * tmp2 - (xb - xa) * tmp1) / denom;
    const wlim = xb + GROW_LIMIT * (xc - xb);
    let fw: number;
    if ((w - xc) * (xb - w) > 0) {
      fw = f(w);
      if (fw < fc) return { xa: xb, xb: w, xc, fb: fw };
      if (fw > fb) return { xa, xb, xc: w, fb };
      w = xc + GOLD * (xc - xb);
      fw = f(w);
    } else if ((w - wlim) * (wlim - xc) >= 0) {
      w = wlim;
      fw = f(w);
    } else if ((w - wlim) * (xc - w) > 0) {
      fw = f(w);
      if (fw < fc) {
        xb = xc;
        xc = w;
        w = xc + GOLD * (xc - xb);
        fb = fc;
        fc = fw;
        fw = f(w);
      }
    } else {
      w = xc + GOLD * (xc - xb);
      fw = f(w);
    }
    xa = xb;
    xb = xc;
    xc = w;
    fa = fb;
    fb = fc;
    fc = fw;
  }
  return { xa, xb, xc, fb };
}

/** The x of a local minimum of f, searching from the bracket (xa, xb) outwards. */
export function brentMinimize(f: (x: number) => number, xa0: number, xb0: number, tol = 1.48e-8, maxIter = 500): number {
  const br = bracket(f, xa0, xb0);
  let x = br.xb;
  let w = x;
  let v = x;
  let fx = br.fb;
  let fw = fx;
  let fv = fx;
  let a = Math.min(br.xa, br.xc);
  let b = Math.max(br.xa, br.xc);
  let deltax = 0;
  let rat = 0;
  const minTol = 1e-11;
  for (let iter = 0; iter < maxIter; iter++) {
    const tol1 = tol * Math.abs(x) + minTol;
    const tol2 = 2 * tol1;
    const xmid = 0.5 * (a + b);
    if (Math.abs(x - xmid) < tol2 - 0.5 * (b - a)) break;
    if (Math.abs(deltax) <= tol1) {
      deltax = x >= xmid ? a - x : b - x;
      rat = CG * deltax;
    } else {
      const tmp1 = (x - w) * (fx - fv);
      let tmp2 = (x - v) * (fx - fw);
      let p = (x - v) * tmp2 - (x - w) * tmp1;
      tmp2 = 2 * (tmp2 - tmp1);
      if (tmp2 > 0) p = -p;
      tmp2 = Math.abs(tmp2);
      const previous = deltax;
      deltax = rat;
      if (p > tmp2 * (a - x) && p < tmp2 * (b - x) && Math.abs(p) < Math.abs(0.5 * tmp2 * previous)) {
        rat = p / tmp2;
        const u = x + rat;
        if (u - a < tol2 || b - u < tol2) rat = xmid - x >= 0 ? tol1 : -tol1;
      } else {
        deltax = x >= xmid ? a - x : b - x;
        rat = CG * deltax;
      }
    }
    const u = Math.abs(rat) < tol1 ? (rat >= 0 ? x + tol1 : x - tol1) : x + rat;
    const fu = f(u);
    if (fu > fx) {
      if (u < x) a = u;
      else b = u;
      if (fu <= fw || w === x) {
        v = w;
        w = u;
        fv = fw;
        fw = fu;
      } else if (fu <= fv || v === x || v === w) {
        v = u;
        fv = fu;
      }
    } else {
      if (u >= x) a = x;
      else b = x;
      v = w;
      w = x;
      x = u;
      fv = fw;
      fw = fx;
      fx = fu;
    }
  }
  return x;
}
