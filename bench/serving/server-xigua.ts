/** The real xigua app listening on a port (for the serving benchmark; prints "ready <port>"). */
import { buildApp } from "../../src/server/app.js";

const app = await buildApp({ config: { dbPath: process.env.XIGUA_DB!, workers: 1 }, logger: false });
await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });
console.log(`ready ${process.env.PORT}`);
process.on("SIGTERM", () => void app.close().then(() => process.exit(0)));
