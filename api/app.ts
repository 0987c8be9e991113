// The API server: createServer(options) builds it (migrations included), listen() serves it.
// Tests and the supervisor use this in-process; api/server.ts runs it as a program. Everything it
// serves and runs is built by the composition root (api/deps.ts); here routes and middlewares are
// wired, and the workers deps built are started and stopped.
import { serve, type ServerType } from "@hono/node-server";
import { createDeps, type Deps } from "./deps.ts";
import { loadEnv, type Env } from "./env.ts";
import { runMigrations } from "./db/migrate.ts";
import { createApp, errorResponse } from "./routes/create-app.ts";
import { createLogger, registerSecrets, type Logger } from "./lib/logger.ts";
import { ApiResponse } from "./lib/api-response.ts";
import { enableStageTrace } from "./lib/stage-trace.ts";
import { tlsServer, type TlsServer } from "./lib/tls.ts";
import { requestPath } from "./middlewares/request-path.ts";
import { apiRouter, openApiDocument } from "./openapi.ts";
import { docsRouter } from "./routes/system/docs.ts";
import { graphiqlAssetsRouter } from "./routes/system/graphiql.ts";

export function buildApp(deps: Deps) {
  const app = createApp();
  // The whole request path in one layer (api/middlewares/request-path.ts): hardening headers, CORS,
  // request id, metrics and logs, the database-outage mapping; token, rate limit, relayer budget and,
  // for requests that may carry a body, the body limit, JSON check, evidence gate and idempotency.
  app.use("*", requestPath(deps, errorResponse));

  // One route table: /v2 paths are routed as their unprefixed twins (spec "Versioning"; routedPath in
  // api/routes/create-app.ts), /v2/openapi.json included.
  const api = apiRouter();
  app.route("/", api);
  app.route("/", docsRouter());
  app.route("/", graphiqlAssetsRouter());

  const doc = openApiDocument(api);
  app.get("/openapi.json", (c) => c.json(doc));
  return app;
}

/**
 * node-server's options for the API's server: HTTPS when configured, and the API's ServerResponse
 * (api/lib/api-response.ts), which writes the request path's headers in writeHead.
 */
export function serveOptions(tls?: TlsServer) {
  return {
    ...(tls ? { createServer: tls.createServer } : {}),
    serverOptions: { ...tls?.serverOptions, ServerResponse: ApiResponse },
  };
}

export interface ServerOptions {
  /** A validated environment; default: process.env merged with `overrides`. */
  env?: Env;
  overrides?: Record<string, string | undefined>;
  logger?: Logger;
}

export interface ApiServer {
  app: ReturnType<typeof buildApp>;
  deps: Deps;
  env: Env;
  /** Listens on env.PORT (0 = a free port); resolves with the bound port and base URL. */
  listen(port?: number): Promise<{ port: number; url: string }>;
  close(): Promise<void>;
}

export async function createServer(options: ServerOptions = {}): Promise<ApiServer> {
  const env = options.env ?? loadEnv(options.overrides);
  // Second line of defence: these values are redacted from every log line (api/lib/logger.ts).
  // (A database password shorter than 12 characters is a local default such as "postgres": redacting it would
  // blank ordinary words.)
  const dbPassword = decodeURIComponent(new URL(env.DATABASE_URL).password);
  registerSecrets([env.RELAYER_PRIVATE_KEY, ...(env.RELAYER_PRIVATE_KEYS ?? []), env.SPONSOR_PRIVATE_KEY, env.JWT_SECRET, env.VAPID_PRIVATE_KEY, dbPassword.length >= 12 ? dbPassword : undefined]);
  const logger = options.logger ?? createLogger(env.LOG_LEVEL, { service: "api" });
  enableStageTrace(env.STAGE_TRACE_FILE);
  const deps = createDeps(env, logger);
  if (env.MIGRATE_ON_START) await runMigrations(deps.database);
  const app = buildApp(deps);
  let server: ServerType | undefined;
  // Housekeeping, the deadline keeper, the journal reactors, the webhook and push dispatchers.
  deps.workers.start();
  return {
    app,
    deps,
    env,
    listen(port = env.PORT) {
      const tls = tlsServer(env);
      const scheme = tls ? "https" : "http";
      return new Promise((resolve, reject) => {
        server = serve({ fetch: app.fetch, port, hostname: env.HOST, ...serveOptions(tls) }, (info) => {
          logger.info("api listening", { port: info.port, host: env.HOST, scheme });
          const t0 = Date.now();
          void deps
            .prefill()
            .then((n) => logger.info("database connections opened", { connections: n, ms: Date.now() - t0 }))
            .catch(() => {});
          void deps.services.discovery
            .warmUp()
            .then(() => logger.info("feed index loaded", { missions: deps.services.discovery.feedIndexStatus().missions, ms: Date.now() - t0 }))
            .catch((err: unknown) => logger.warn("feed index not loaded at start (the first /feed loads it)", { error: err instanceof Error ? err.message : String(err) }));
          resolve({ port: info.port, url: `${scheme}://127.0.0.1:${info.port}` });
        });
        server.once("error", reject);
        // WebSocket /ws (discovery area): upgrades on the same HTTP server.
        deps.workers.realtime.attach(server as unknown as import("node:http").Server);
      });
    },
    async close() {
      await deps.workers.stop();
      if (server) {
        const s = server;
        await new Promise<void>((r) => {
          s.close(() => r());
          (s as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
        });
      }
      await deps.close();
    },
  };
}

/** createServer + listen. */
export async function startApi(options: ServerOptions = {}): Promise<ApiServer & { url: string; port: number }> {
  const s = await createServer(options);
  const { url, port } = await s.listen();
  return Object.assign(s, { url, port });
}
