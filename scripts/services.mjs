// Whether the services the cluster tests need answer: Redis (PING) and PostgreSQL (a TCP
// connection). Same defaults and overrides as test/helpers/cluster.ts.
import { connect } from "node:net";

const REDIS_URL = new URL(process.env.XIGUA_TEST_REDIS_URL || "redis://127.0.0.1:6379");
const POSTGRES_URL = new URL(process.env.XIGUA_TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test");

/** Resolves true when the server at url accepts a connection and, given a greeting, answers it with `expect`. */
function answers(url, defaultPort, greeting, expect) {
  return new Promise((resolve) => {
    const socket = connect({ host: url.hostname, port: Number(url.port) || defaultPort });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2000, () => done(false));
    socket.once("error", () => done(false));
    socket.once("connect", () => (greeting ? socket.write(greeting) : done(true)));
    socket.once("data", (data) => done(data.toString().startsWith(expect)));
  });
}

/** The unreachable services, by name (empty when all answer). */
export async function checkServices() {
  const [redis, postgres] = await Promise.all([answers(REDIS_URL, 6379, "PING\r\n", "+PONG"), answers(POSTGRES_URL, 5432, null, "")]);
  return [redis ? null : `Redis (${REDIS_URL.host})`, postgres ? null : `PostgreSQL (${POSTGRES_URL.host})`].filter(Boolean);
}
