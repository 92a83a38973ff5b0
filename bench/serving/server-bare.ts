/** A bare Fastify route that parses the same JSON body and returns a constant: the ceiling for /predict. */
import Fastify from "fastify";

const app = Fastify({ logger: false });
app.post("/predict", async () => ({ model_id: "bare", predictions: ["benign"] }));
await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });
console.log(`ready ${process.env.PORT}`);
process.on("SIGTERM", () => void app.close().then(() => process.exit(0)));
