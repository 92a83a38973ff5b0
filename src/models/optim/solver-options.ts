/**
 * Solver-specific options as a tagged union keyed by `solver` (STYLE.md §2): each
 * solver's branch is a strict object holding only the options that solver reads,
 * so an option that would have no effect cannot be given a value of its own — the
 * 422 names it and the solvers it belongs to. An inert option at its default is
 * dropped rather than refused, so params stored before the union (which listed
 * every option, at its default unless chosen) still parse.
 */
import { z } from "zod";

type Shapes = Readonly<Record<string, z.ZodRawShape>>;

/**
 * The union over `solver` of one strict branch per solver, `shapes[name]` holding what
 * that solver reads (the shared options included); `fallback` is the solver used when
 * none is given. JSON Schema: a oneOf of objects, each with its defaults.
 */
export function solverUnion(shapes: Shapes, fallback: string) {
  const names = Object.keys(shapes);
  const branch = (name: string) => z.strictObject({ solver: name === fallback ? z.literal(name).default(name) : z.literal(name), ...shapes[name] });
  const branches = names.map(branch) as [ReturnType<typeof branch>, ...ReturnType<typeof branch>[]];
  const defaults = defaultsByKey(shapes);
  const otherSolversOptions = (value: unknown, ctx: z.RefinementCtx): unknown => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
    const given = value as Record<string, unknown>;
    const solver = given.solver ?? fallback;
    const own = typeof solver === "string" && Object.hasOwn(shapes, solver) ? shapes[solver] : null;
    if (!own) return value;
    const kept: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(given)) {
      const owners = key === "solver" || key in own ? [] : names.filter((n) => key in shapes[n]);
      if (owners.length === 0) kept[key] = v;
      else if (!isDefault(defaults.get(key), v)) {
        ctx.addIssue({ code: "custom", path: [key], message: `"${key}" has no effect with solver "${solver}" (only with ${owners.map((o) => `"${o}"`).join(", ")})` });
      }
    }
    return kept;
  };
  const invalidSolver = { error: (issue: { code?: string }) => (issue.code === "invalid_union" ? `solver must be one of ${names.map((v) => `"${v}"`).join(", ")}` : undefined) };
  // A preprocess keeps the input JSON Schema that of the union (zod reads a pipe from a transform by its output).
  return z.preprocess(otherSolversOptions, z.discriminatedUnion("solver", branches, invalidSolver));
}

/** Each option's default in the branches that have it. */
function defaultsByKey(shapes: Shapes): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  for (const shape of Object.values(shapes)) {
    for (const [key, schema] of Object.entries(shape)) {
      const r = (schema as z.ZodType).safeParse(undefined);
      if (r.success) out.set(key, [...(out.get(key) ?? []), r.data]);
    }
  }
  return out;
}

function isDefault(defaults: unknown[] | undefined, value: unknown): boolean {
  return defaults !== undefined && defaults.length > 0 && defaults.every((d) => JSON.stringify(d) === JSON.stringify(value));
}

/**
 * For options that a sibling option (not the solver) makes inert, e.g. power_t without the
 * invscaling schedule: a value other than the default is refused, naming the option.
 */
export function refuseInert(ctx: z.RefinementCtx, given: unknown, fallback: unknown, key: string, why: string): void {
  if (given !== undefined && given !== fallback) ctx.addIssue({ code: "custom", path: [key], message: `"${key}" has no effect ${why}` });
}
