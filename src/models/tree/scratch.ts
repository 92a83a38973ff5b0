/**
 * Module-level scratch arrays of the tree engine: a split's temporary copies reuse one array
 * per kind, grown geometrically, instead of allocating per node (a fit makes thousands of splits).
 * Contents are undefined on return: each caller writes what it reads. A fit runs to its end
 * synchronously on its thread, so two fits never share one at the same time.
 */
export function scratchArray<T extends { readonly length: number }>(Kind: new (n: number) => T, initial = 1024): (n: number) => T {
  let array = new Kind(initial);
  return (n) => {
    if (array.length < n) array = new Kind(Math.max(n, 2 * array.length));
    return array;
  };
}
