/** The OpenAPI document as the routes generate it (shared by the generator script and the drift test). */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp } from "../src/server/app.js";

export async function generateOpenApi(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "xigua-openapi-"));
  const app = await buildApp({ config: { dbPath: join(dir, "openapi.db"), workers: 1 }, logger: false });
  try {
    await app.ready();
    return JSON.stringify(app.swagger(), null, 2) + "\n";
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
