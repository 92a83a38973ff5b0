/** POST/GET/DELETE /v1/api-keys and GET /v1/audit: scope "admin". The secret is in the creation answer only. */
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { ApiKeyRecord, AuditRecord } from "../../store/access.js";
import { notFound } from "../errors.js";
import { cursorSeq, page } from "../routes/pagination.js";
import { errorResponses, idParams, listOf, paginationQuery, problemSchema } from "../schemas/common.js";
import { formatKey, hashSecret, newSalt, newSecret } from "./keys.js";
import { SCOPES } from "./principal.js";

const admin = { scope: "admin" } as const;

const createKey = z
  .object({
    name: z.string().min(1).max(200).describe("What the key is for, for people."),
    scopes: z.array(z.enum(SCOPES)).min(1).max(SCOPES.length).describe("read: GETs; predict: predictions; train: creating datasets, models, evaluations, searches, comparisons and cancelling; admin: everything, keys and audit included."),
    rate_per_minute: z.number().int().min(1).max(1_000_000).optional().describe("This key's requests a minute; the server's default (XIGUA_RATE_PER_MINUTE) if absent."),
  })
  .strict();

const apiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    scopes: z.array(z.enum(SCOPES)),
    rate_per_minute: z.number().int().nullable(),
    created_at: z.string(),
    revoked_at: z.string().nullable(),
    created_by: z.string().nullable().describe("The key that created it; null when authentication was off."),
  })
  .meta({ id: "ApiKey", description: "An API key, without its secret (kept only as a salted hash)." });

const createdKeySchema = apiKeySchema
  .extend({ key: z.string().describe("The key to send as Authorization: Bearer <key>. Shown once: only a salted hash is kept.") })
  .meta({ id: "CreatedApiKey", description: "A new API key with its secret, shown this once." });

const auditSchema = z
  .object({
    time: z.string(),
    key_id: z.string().nullable().describe("The key that made the request; null with authentication off."),
    action: z.enum(["create", "delete", "update"]),
    resource_type: z.string().describe("The collection: datasets, models, evaluations, searches, api-keys, …"),
    resource_id: z.string(),
    request_id: z.string(),
  })
  .meta({ id: "AuditEntry", description: "Who created, changed or deleted what." });

function keyToWire(k: ApiKeyRecord): z.infer<typeof apiKeySchema> {
  return { id: k.id, name: k.name, scopes: k.scopes as z.infer<typeof apiKeySchema>["scopes"], rate_per_minute: k.rate_per_minute, created_at: k.created_at, revoked_at: k.revoked_at, created_by: k.created_by };
}

function auditToWire(a: AuditRecord): z.infer<typeof auditSchema> {
  return { time: a.time, key_id: a.key_id, action: a.action as z.infer<typeof auditSchema>["action"], resource_type: a.resource_type, resource_id: a.resource_id, request_id: a.request_id };
}

export const accessRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { store } = app.services;

  app.post(
    "/api-keys",
    {
      config: admin,
      schema: { operationId: "createApiKey", tags: ["access"], summary: "Create an API key (its secret is in this answer only)", body: createKey, response: { 201: createdKeySchema, ...errorResponses } },
    },
    async (request, reply) => {
      const secret = newSecret();
      const salt = newSalt();
      const { name, scopes, rate_per_minute } = request.body;
      const record = await store.apiKeys.insert({ name, scopes: [...new Set(scopes)], rate_per_minute: rate_per_minute ?? null, salt, secret_hash: hashSecret(salt, secret), created_by: request.principal.keyId });
      reply.header("location", `/v1/api-keys/${record.id}`);
      return reply.code(201).send({ ...keyToWire(record), key: formatKey(record.id, secret) });
    },
  );

  app.get(
    "/api-keys",
    { config: admin, schema: { operationId: "listApiKeys", tags: ["access"], summary: "List API keys, newest first, revoked ones included (never their secrets)", querystring: paginationQuery, response: { 200: listOf(apiKeySchema), ...errorResponses } } },
    async (request) => {
      const { limit, cursor } = request.query;
      return page(await store.apiKeys.list(limit + 1, cursorSeq(cursor)), limit, keyToWire);
    },
  );

  app.delete(
    "/api-keys/:id",
    { config: admin, schema: { operationId: "revokeApiKey", tags: ["access"], summary: "Revoke an API key: it fails from the next request", params: idParams, response: { 204: z.null().describe("Revoked"), 404: problemSchema } } },
    async (request, reply) => {
      if (!(await store.apiKeys.revoke(request.params.id))) throw notFound("API key", request.params.id);
      app.authenticator.forget(request.params.id);
      // The other API processes forget it too (their 1 s cache is the fallback for a lost message).
      await app.services.events.keyRevoked(request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    "/audit",
    { config: admin, schema: { operationId: "listAudit", tags: ["access"], summary: "The audit trail: who (which key) created, changed or deleted what, newest first", querystring: paginationQuery, response: { 200: listOf(auditSchema), ...errorResponses } } },
    async (request) => {
      const { limit, cursor } = request.query;
      return page(await store.audit.list(limit + 1, cursorSeq(cursor)), limit, auditToWire);
    },
  );
};
