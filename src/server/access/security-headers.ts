/**
 * The security headers @fastify/helmet sets, computed once at start-up and copied onto every
 * response. Helmet's own hook rebuilds them per response (the Content-Security-Policy string is
 * parsed and re-serialised from its directives each time, to allow per-request nonces), which
 * measured as a third of a single-row predict's time; xigua uses no nonces, so the headers are
 * the same for every response. They are read off a throwaway Fastify instance with helmet
 * registered, answering one request: helmet's public behaviour, whatever its version sets.
 */
import Fastify, { type FastifyInstance } from "fastify";
import helmet, { type FastifyHelmetOptions } from "@fastify/helmet";

/** Headers of any response that are not helmet's. */
const NOT_HELMET = new Set(["content-type", "content-length", "date", "connection", "keep-alive"]);

export async function helmetHeaders(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const probe = Fastify({ logger: false });
  try {
    await probe.register(helmet, options);
    probe.get("/", async () => "");
    const res = await probe.inject({ url: "/" });
    return Object.fromEntries(Object.entries(res.headers).filter(([name, value]) => !NOT_HELMET.has(name) && typeof value === "string") as [string, string][]);
  } finally {
    await probe.close();
  }
}

/** Every response carries the headers (set before any hook or handler runs, as helmet's own hook does). */
export async function registerSecurityHeaders(app: FastifyInstance, options: FastifyHelmetOptions): Promise<void> {
  const headers = await helmetHeaders(options);
  app.addHook("onRequest", (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
