/**
 * fastify-type-provider-zod registers every named zod schema twice, as read (`…Input`)
 * and as written; a schema only ever used one way leaves the other as a component no
 * operation refers to. Generators then emit dead types and linters flag them
 * (Redocly's no-unused-components), so the document keeps only what is referenced,
 * directly or through other components.
 */
interface Doc {
  paths?: unknown;
  components?: { schemas?: Record<string, unknown> };
}

const PREFIX = "#/components/schemas/";

function collectRefs(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const v of value) collectRefs(v, into);
  } else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (k === "$ref" && typeof v === "string" && v.startsWith(PREFIX)) into.add(v.slice(PREFIX.length));
      else collectRefs(v, into);
    }
  }
}

export function withoutUnusedSchemas<T>(doc: T): T {
  const d = doc as Doc;
  const schemas = d.components?.schemas;
  if (!schemas) return doc;
  const used = new Set<string>();
  collectRefs(d.paths, used);
  // Follow references between components until nothing new turns up.
  const queue = [...used];
  while (queue.length) {
    const name = queue.pop()!;
    const found = new Set<string>();
    collectRefs(schemas[name], found);
    for (const f of found) {
      if (used.has(f)) continue;
      used.add(f);
      queue.push(f);
    }
  }
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name];
  return doc;
}

/**
 * Error answers are application/problem+json (RFC 9457; src/server/errors.ts), but the
 * route schemas can only say "JSON": every 4xx/5xx answer whose body is the Problem schema
 * is declared under the media type the service really sends.
 */
export function withProblemMediaType<T>(doc: T): T {
  const paths = (doc as { paths?: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }> }>> }).paths;
  for (const operations of Object.values(paths ?? {})) {
    for (const operation of Object.values(operations)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const json = response.content?.["application/json"];
        if (Number(status) >= 400 && json?.schema?.$ref === `${PREFIX}Problem`) {
          response.content = { "application/problem+json": json };
        }
      }
    }
  }
  return doc;
}
