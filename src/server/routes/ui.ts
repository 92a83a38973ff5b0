/**
 * The dashboard (issue 15): the static files `npm run build` compiles from ui/ into
 * dist/ui, served from this process so it works offline and under a same-origin CSP.
 * GET / is the page, GET /ui/* its scripts, styles and the vendored uPlot. The pages
 * are public; the API calls they make carry the caller's key.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyPluginAsync } from "fastify";
import fastifyStatic from "@fastify/static";
import { ApiError } from "../errors.js";

/** dist/ui at the package root, whether this file runs from src/ (tsx) or dist/ (npm start). */
export const DEFAULT_UI_ROOT = fileURLToPath(new URL("../../../dist/ui/", import.meta.url));

export interface UiOptions {
  root?: string;
}

export const uiRoutes: FastifyPluginAsync<UiOptions> = async (app, options) => {
  const root = options.root ?? DEFAULT_UI_ROOT;
  // serve: false: our own two routes, so they carry their scope and stay out of the OpenAPI document.
  await app.register(fastifyStatic, { root, serve: false });
  const routeOptions = { schema: { hide: true }, config: { scope: "public" as const } };

  // Checked per request: a build after start is picked up, and a missing build says how to fix it.
  const requireBuilt = () => {
    if (!existsSync(join(root, "index.html"))) throw new ApiError("unavailable", "The dashboard is not built: run `npm run build` (npm start does).");
  };
  app.get("/", routeOptions, async (_request, reply) => {
    requireBuilt();
    return reply.header("cache-control", "no-cache").sendFile("index.html");
  });
  app.get<{ Params: { "*": string } }>("/ui/*", routeOptions, async (request, reply) => {
    requireBuilt();
    // @fastify/send refuses paths that leave root; a missing file is the usual 404 problem.
    return reply.header("cache-control", "no-cache").sendFile(request.params["*"]);
  });
};
