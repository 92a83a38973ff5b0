/** The dashboard's static routes (src/server/routes/ui.ts) on a root of our own: page, assets, traversal, a missing build, scope and visibility. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Fastify, { type RouteOptions } from "fastify";
import { registerErrorHandling, frameworkErrors } from "../../src/server/plugins/errors.js";
import { uiRoutes } from "../../src/server/routes/ui.js";

async function appOn(root: string) {
  const app = Fastify({ logger: false, frameworkErrors });
  registerErrorHandling(app);
  const routes: RouteOptions[] = [];
  app.addHook("onRoute", (r) => void routes.push(r));
  await app.register(uiRoutes, { root });
  await app.ready();
  return { app, routes };
}

test("serves index.html at / and files under /ui/, nothing outside the root", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "xigua-ui-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const root = join(dir, "ui");
  mkdirSync(join(root, "js"), { recursive: true });
  writeFileSync(join(root, "index.html"), "<!doctype html><title>page</title>");
  writeFileSync(join(root, "js", "main.js"), "export const x = 1;");
  writeFileSync(join(dir, "secret.txt"), "not for you");
  const { app, routes } = await appOn(root);
  t.after(() => app.close());

  const page = await app.inject({ url: "/" });
  assert.equal(page.statusCode, 200);
  assert.match(page.headers["content-type"] as string, /^text\/html/);
  assert.equal(page.body, "<!doctype html><title>page</title>");
  const script = await app.inject({ url: "/ui/js/main.js" });
  assert.equal(script.statusCode, 200);
  assert.match(script.headers["content-type"] as string, /javascript/);
  assert.equal((await app.inject({ method: "HEAD", url: "/" })).statusCode, 200);

  const missing = await app.inject({ url: "/ui/js/nope.js" });
  assert.equal(missing.statusCode, 404);
  assert.match(missing.headers["content-type"] as string, /^application\/problem\+json/);
  for (const url of ["/ui/../secret.txt", "/ui/%2e%2e/secret.txt", "/ui/js/%2e%2e/%2e%2e/secret.txt", "/ui/..%2fsecret.txt"]) {
    const res = await app.inject({ url });
    assert.ok(res.statusCode === 403 || res.statusCode === 404, `${url}: ${res.statusCode}`);
    assert.doesNotMatch(res.body, /not for you/, url);
  }

  // Public pages (the API calls they make carry the key), kept out of the OpenAPI document.
  const mine = routes.filter((r) => (r.url === "/" || r.url === "/ui/*") && r.method === "GET");
  assert.equal(mine.length, 2);
  for (const r of mine) {
    assert.equal(r.config?.scope, "public", r.url);
    assert.equal((r.schema as { hide?: boolean }).hide, true, r.url);
  }
});

test("without a build, / answers 503 problem+json saying how to build", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "xigua-ui-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const { app } = await appOn(join(dir, "absent"));
  t.after(() => app.close());
  for (const url of ["/", "/ui/js/main.js"]) {
    const res = await app.inject({ url });
    assert.equal(res.statusCode, 503, url);
    assert.match(res.headers["content-type"] as string, /^application\/problem\+json/);
    assert.equal(res.json().code, "unavailable");
    assert.match(res.json().detail, /npm run build/);
  }
});
