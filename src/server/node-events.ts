/**
 * What one API process tells the others, so their caches stay correct: that a model was
 * deleted (each evicts it from its model cache at once) and that an API key was revoked
 * (each forgets it from its authenticator's cache, so it fails on the next request there
 * too). Over Redis pub/sub when the deployment has a queue (XIGUA_QUEUE_URL); a lone
 * process has no one to tell. A lost message costs at most the caches' TTL (1 s): past
 * it, every node asks the store again.
 */
import { importBeside } from "../import-beside.js";
import type { Redis } from "ioredis";

export interface NodeEvents {
  /** Tells every other node; resolves once sent (or given up: the TTL covers a lost message). */
  modelDeleted(id: string): Promise<void>;
  keyRevoked(id: string): Promise<void>;
  close(): Promise<void>;
}

export interface NodeEventHandlers {
  onModelDeleted(id: string): void;
  onKeyRevoked(id: string): void;
}

type Topic = "model-deleted" | "key-revoked";
const channel = (queueName: string, topic: Topic) => `xigua:${queueName}:${topic}`;

export async function createNodeEvents(options: { queueUrl: string | null; queueName: string }, handlers: NodeEventHandlers): Promise<NodeEvents> {
  if (!options.queueUrl) return { modelDeleted: async () => {}, keyRevoked: async () => {}, close: async () => {} };
  // bullmq and ioredis (≈ 14 MiB, 150 ms) are loaded only when a queue is configured.
  const { redisConnection } = await importBeside<typeof import("../training/queue/bullmq-queue.js")>(import.meta.url, "../training/queue/bullmq-queue");
  const channels: Record<Topic, string> = { "model-deleted": channel(options.queueName, "model-deleted"), "key-revoked": channel(options.queueName, "key-revoked") };
  const publisher: Redis = redisConnection(options.queueUrl, { failFast: true });
  const subscriber: Redis = redisConnection(options.queueUrl, { failFast: false });
  for (const r of [publisher, subscriber]) r.on("error", () => {});
  subscriber.on("message", (from: string, id: string) => {
    if (from === channels["model-deleted"]) handlers.onModelDeleted(id);
    else if (from === channels["key-revoked"]) handlers.onKeyRevoked(id);
  });
  // Not awaited: a node starting while Redis is down still serves; ioredis subscribes again on reconnect.
  subscriber.subscribe(...Object.values(channels)).catch(() => {});
  const publish = (topic: Topic) => async (id: string) => {
    await publisher.publish(channels[topic], id).catch(() => {});
  };
  return {
    modelDeleted: publish("model-deleted"),
    keyRevoked: publish("key-revoked"),
    close: async () => {
      await Promise.all([publisher, subscriber].map((r) => r.quit().catch(() => r.disconnect())));
    },
  };
}
