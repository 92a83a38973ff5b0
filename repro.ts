import { readFileSync } from "node:fs";
import { buildApp } from "./src/server/app.js";
const app = await buildApp({ config: { dbPath: "/tmp/x.db", databaseUrl: "postgres://postgres@127.0.0.1:5432/test?schema=xt_repro", workers: 1, shutdownGraceMs: 2000 }, logger: { level: "warn" } });
const csv = readFileSync("test/fixtures/watermelon-3.0.csv");
const up = await app.inject({ method: "POST", url: "/v1/datasets?name=a", headers: { "content-type": "text/csv" }, payload: csv });
const id = up.json().id;
const res = await app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: id, algorithm: "cart", target: "好瓜" } });
console.log(res.statusCode);
for (let i = 0; i < 40; i++) { const m = (await app.inject({ url: res.headers.location as string })).json(); if (m.status !== "queued" && m.status !== "running") { console.log(m.status, m.error); break; } await new Promise((r) => setTimeout(r, 100)); }
await app.close();
