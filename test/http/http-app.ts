// The HTTP layer without a chain or a database: the real app (buildApp over createDeps) driven with
// app.request(). PostgreSQL and the RPC point at a closed port, so only what the middlewares and the
// route schemas decide before any query can be asserted here (statuses, envelopes, headers,
// validation, auth failures); anything that reads data belongs to the e2e project.
import { buildApp } from "../../api/app.ts";
import { createDeps } from "../../api/deps.ts";
import { loadEnv } from "../../api/env.ts";
import { createLogger } from "../../api/lib/logger.ts";
import { readChecked, requestInit, type RequestOptions } from "../lib/request.ts";

/** Nothing listens on port 9 (discard): connections are refused at once. */
const CLOSED = "127.0.0.1:9";
export const JWT_SECRET = "http-test-jwt-secret-http-test-jwt-secret-0123";

export interface HttpRes<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

export function httpApp(overrides: Record<string, string> = {}) {
  const env = loadEnv({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    DATABASE_URL: `postgres://nobody:nobody@${CLOSED}/none`,
    RPC_URL: `http://${CLOSED}`,
    INDEXER_URL: `http://${CLOSED}`,
    JWT_SECRET,
    RELAYER_PRIVATE_KEY: "",
    KEEPER_INTERVAL_MS: "0",
    // Every request comes from one client here; rate limits have their own e2e file.
    RATE_LIMIT_ANON_PER_MIN: "100000",
    RATE_LIMIT_USER_PER_MIN: "100000",
    RATE_LIMIT_PREMIUM_PER_MIN: "100000",
    ...overrides,
  });
  const deps = createDeps(env, createLogger("silent", { service: "api" }));
  const app = buildApp(deps);

  /** One request; the body is parsed when it is JSON and checked against the route's documented schema. */
  async function request<T = any>(
    method: string,
    path: string,
    opts: RequestOptions<string | FormData> = {},
  ): Promise<HttpRes<T>> {
    const { headers, body } = requestInit(opts);
    const res = await app.request(path, { method, headers, body });
    return readChecked(method, path, res);
  }

  return { app, deps, env, request, close: () => deps.database.close() };
}
