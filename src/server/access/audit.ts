/**
 * What a request did, for the audit table: a POST that created a resource (it answers
 * 2xx with a Location), a DELETE, a PUT (e.g. moving an alias). Reads, predictions and
 * failures are not audited.
 */
import type { NewAuditEntry } from "../../store/access.js";

/** "/v1/models/md_x?y" → { resource_type: "models", resource_id: "md_x" }; "/v1/registry/n/aliases/a" → registry, "n/aliases/a". */
export function resourceOf(path: string): { resource_type: string; resource_id: string } {
  const parts = path.split("?")[0].split("/").filter((p) => p !== "");
  if (/^v\d+$/.test(parts[0] ?? "")) parts.shift();
  return { resource_type: parts[0] ?? "", resource_id: parts.slice(1).join("/") };
}

export function auditAction(method: string, url: string, status: number, location: unknown): Omit<NewAuditEntry, "key_id" | "request_id"> | null {
  if (status < 200 || status >= 300) return null;
  if (method === "POST" && typeof location === "string") return { action: "create", ...resourceOf(location) };
  if (method === "DELETE") return { action: "delete", ...resourceOf(url) };
  if (method === "PUT") return { action: "update", ...resourceOf(url) };
  return null;
}
