/**
 * /v1/registry: model names, their versions and aliases. A model trained or imported
 * with a `name` gets the next version of it (the store numbers it); an alias names a
 * version and is moved with PUT. References (`name@alias`, `name:version`, `name`) are
 * resolved where a model is used (src/server/model-ref.ts), fresh on every request.
 */
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { ApiError } from "../errors.js";
import { errorResponses, problemSchema } from "../schemas/common.js";
import { aliasMapping, aliasParams, registryList, registryListQuery, registryNameParams, registryNameSchema, registryVersionsQuery, setAliasBody } from "../schemas/registry.js";
import { cursorSeq } from "./pagination.js";
import { modelToWire } from "./models.js";
import { encodeCursor } from "../../store/ids.js";

/** Name cursors: base64url of the page's last name (names are ordered as bytes in both stores). */
function encodeNameCursor(name: string): string {
  return Buffer.from(`n:${name}`).toString("base64url");
}

function decodeNameCursor(cursor: string | undefined): string | null {
  if (cursor === undefined) return null;
  const text = Buffer.from(cursor, "base64url").toString();
  if (!text.startsWith("n:") || text.length < 3) throw new ApiError("validation_failed", "cursor is not one this service issued", [{ path: "query.cursor", message: "invalid cursor" }]);
  return text.slice(2);
}

const unknownName = (name: string) => new ApiError("not_found", `no model is named ${name}`);

export const registryRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { store } = app.services;

  app.get(
    "/registry",
    {
      schema: {
        operationId: "listRegistry", tags: ["registry"],
        summary: "Model names in byte order, each with its latest version, latest succeeded version and aliases",
        querystring: registryListQuery,
        response: { 200: registryList, ...errorResponses },
      },
    },
    async (request) => {
      const { limit, cursor } = request.query;
      const entries = await store.registry.list(limit + 1, decodeNameCursor(cursor));
      const more = entries.length > limit;
      const items = more ? entries.slice(0, limit) : entries;
      return { items, next_cursor: more ? encodeNameCursor(items[items.length - 1].name) : null };
    },
  );

  app.get(
    "/registry/:name",
    {
      schema: {
        operationId: "getRegistryName", tags: ["registry"],
        summary: "A name: its versions (models, highest version first, paged) and aliases. 404 when no model has the name.",
        params: registryNameParams,
        querystring: registryVersionsQuery,
        response: { 200: registryNameSchema, 404: problemSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { name } = request.params;
      const { limit, cursor } = request.query;
      const entry = await store.registry.entry(name);
      if (!entry) throw unknownName(name);
      const versions = await store.registry.versions(name, limit + 1, cursorSeq(cursor));
      const more = versions.length > limit;
      const kept = more ? versions.slice(0, limit) : versions;
      return { ...entry, versions: kept.map(modelToWire), next_cursor: more ? encodeCursor(kept[kept.length - 1].version!) : null };
    },
  );

  app.put(
    "/registry/:name/aliases/:alias",
    {
      config: { scope: "admin" },
      schema: {
        operationId: "setRegistryAlias", tags: ["registry"],
        summary:
          "Point an alias (e.g. production, staging) at a version of the name, creating or moving it; the next request naming name@alias on any node gets that version. " +
          "Answers the mapping. 404 when no model has the name; 422 when the name has no such version (any status may be aliased: predicting with one not succeeded is a 409).",
        params: aliasParams,
        body: setAliasBody,
        response: { 200: aliasMapping, 404: problemSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { name, alias } = request.params;
      const { version } = request.body;
      const outcome = await store.registry.setAlias(name, alias, version);
      if (outcome === "unknown_name") throw unknownName(name);
      if (outcome === "unknown_version") throw new ApiError("unusable_request", `${name} has no version ${version}`, [{ path: "version", message: "no such version" }]);
      const modelId = await store.registry.byVersion(name, version);
      // The version was deleted between the two reads: as if it never existed.
      if (modelId === undefined) throw new ApiError("unusable_request", `${name} has no version ${version}`, [{ path: "version", message: "no such version" }]);
      return { name, alias, version, model_id: modelId };
    },
  );

  app.delete(
    "/registry/:name/aliases/:alias",
    {
      config: { scope: "admin" },
      schema: {
        operationId: "deleteRegistryAlias", tags: ["registry"],
        summary: "Remove an alias (its version stays). 404 when the name has no such alias.",
        params: aliasParams,
        response: { 204: z.null(), 404: problemSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { name, alias } = request.params;
      if (!(await store.registry.deleteAlias(name, alias))) throw new ApiError("not_found", `${name} has no alias ${alias}`);
      return reply.code(204).send(null);
    },
  );
};
