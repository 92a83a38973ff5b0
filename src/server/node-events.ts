/**
 * What one API process tells the others, so their caches stay correct: today,
 * that a model was deleted (each evicts it from its model cache at once).
 * Over Redis pub/sub when the deployment has a queue (XIGUA_QUEUE_URL); a lone
 * process has no one to tell. A lost message costs at most the model cache's
 * status TTL (1 s): past it, every node asks the store again.
 */
import type { Redis } from "ioredis";
import { redisConnection } from "../training/queue/bullmq-queue.js";

export interface NodeEvents {
  /** Tells every other node; resolves once sent (or given up: the TTL covers a lost message). */
  modelDeleted(id: string): Promise<void>;
  close(): Promise<void>;
}

const channel = (queueName: string) => `xigua:${queueName}:model-deleted`;

export async function createNodeEvents(options: { queueUrl: string | null; queueName: string }, onModelDeleted: (id: string) => void): Promise<NodeEvents> {
  if (!options.queueUrl) return { modelDeleted: async () => {}, close: async () => {} };
  const name = channel(options.queueName);
  const publisher: Redis = redisConnection(options.queueUrl, { failFast: true });
  const subscriber: Redis = redisConnection(options.queueUrl, { failFast: false });
  for (const r of [publisher, subscriber]) r.on("error", () => {});
  subscriber.on("message", (_channel: string, id: string) => onModelDeleted(id));
  // Not awaited: a node starting while Redis is down still serves; ioredis subscribes again on reconnect.
  subscriber.subscribe(name).catch(() => {});
  return {
    modelDeleted: async (id) => {
      await publisher.publish(name, id).catch(() => {});
    },
    close: async () => {
      await Promise.all([publisher, subscriber].map((r) => r.quit().catch(() => r.disconnect())));
    },
  };
}
