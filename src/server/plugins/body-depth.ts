/**
 * Bounds how deeply a JSON body nests. JSON.parse takes any depth, but much of
 * what follows recurses (zod, JSON.stringify in messages, structured clone to a
 * worker, canonical JSON of an artifact): a 5,000-level value in a search grid
 * overflowed the stack while an error message was built. Refusing such bodies
 * before validation removes the whole class. No request of this API legitimately
 * nests past a dozen levels (an artifact of nested ensembles is the deepest).
 */
import type { FastifyInstance } from "fastify";
import { ApiError } from "../errors.js";

export const MAX_BODY_DEPTH = 64;

interface Frame {
  value: object;
  depth: number;
  parent: Frame | null;
  key: string | number;
}

function pathOf(frame: Frame): string {
  const keys: (string | number)[] = [];
  for (let f: Frame | null = frame; f?.parent; f = f.parent) keys.push(f.key);
  let out = "";
  for (const key of keys.reverse()) out += typeof key === "number" ? `[${key}]` : out === "" ? key : `.${key}`;
  return out || "body";
}

/**
 * A JSON array or object. Bytes are not: a large predict body reaches this hook as its raw blocks
 * (src/server/predict-body.ts, parsed on the compute pool), and walking a Buffer's indices as keys
 * cost half a second per 100k-row body on the request thread.
 */
function isContainer(value: unknown): value is object {
  return typeof value === "object" && value !== null && !ArrayBuffer.isView(value) && !(value instanceof ArrayBuffer);
}

/** True when some container sits deeper than `limit` (the body itself is depth 1). Iterative, no allocation per container. */
function nestsDeeperThan(body: object, limit: number): boolean {
  const values: object[] = [body];
  const depths: number[] = [1];
  while (values.length > 0) {
    const value = values.pop()!;
    const depth = depths.pop()!;
    if (depth > limit) return true;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const child: unknown = value[i];
        if (isContainer(child)) {
          values.push(child);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const key in value) {
        const child: unknown = (value as Record<string, unknown>)[key];
        if (isContainer(child)) {
          values.push(child);
          depths.push(depth + 1);
        }
      }
    }
  }
  return false;
}

/** The path of the first container nested deeper than `limit`, or null. The path is only traced once a body is known to be too deep. */
export function tooDeepPath(body: unknown, limit = MAX_BODY_DEPTH): string | null {
  if (!isContainer(body) || !nestsDeeperThan(body, limit)) return null;
  const stack: Frame[] = [{ value: body, depth: 1, parent: null, key: "" }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.depth > limit) return pathOf(frame);
    const entries: [string | number, unknown][] = Array.isArray(frame.value) ? frame.value.map((v, i) => [i, v]) : Object.entries(frame.value);
    for (const [key, child] of entries) {
      if (isContainer(child)) stack.push({ value: child, depth: frame.depth + 1, parent: frame, key });
    }
  }
  return null;
}

/** Throws the problem for a body nested too deeply: from the hook, and from a compute thread that parsed a body itself. */
export function refuseDeepBody(body: unknown): void {
  const path = tooDeepPath(body);
  if (path !== null) {
    const message = `nested more than ${MAX_BODY_DEPTH} levels deep`;
    throw new ApiError("nesting_too_deep", `the body is ${message} at ${path}`, [{ path, message }]);
  }
}

export function registerBodyDepthLimit(app: FastifyInstance): void {
  // A callback hook, not an async one: it runs on every request with a body, and needs no promise.
  app.addHook("preValidation", (request, _reply, done) => {
    const body = request.body;
    if (body === undefined || body === null || typeof body !== "object" || Buffer.isBuffer(body)) return done();
    try {
      refuseDeepBody(body);
    } catch (e) {
      return done(e as Error);
    }
    done();
  });
}
