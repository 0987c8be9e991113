// The API server: createServer(options) builds it (migrations included), listen() serves it.
// Tests and the supervisor use this in-process; api/server.ts runs it as a program. Everything it
// serves and runs is built by the composition root (api/deps.ts); here routes and middlewares are
// wired, and the workers deps built are started and stopped.
import { serve, type ServerType } from "@hono/node-server";
import { bodyLimit } from "hono/body-limit";
import { createDeps, type Deps } from "./deps.ts";
import { loadEnv, type Env } from "./env.ts";
import { runMigrations } from "./db/migrate.ts";
import { createApp } from "./routes/create-app.ts";
import { AppError, errorBody } from "./lib/errors.ts";
import { createLogger, registerSecrets, type Logger } from "./lib/logger.ts";
import { tlsServer } from "./lib/tls.ts";
import { readToken, rejectBadToken, relayOnBehalf } from "./middlewares/auth.ts";
import { requireJsonBody } from "./middlewares/content-type.ts";
import { idempotency } from "./middlewares/idempotency.ts";
import { observe } from "./middlewares/observe.ts";
import { apiRouter, openApiDocument } from "./openapi.ts";
import { rateLimit } from "./middlewares/rate-limit.ts";
import { contentSecurityPolicy, corsPolicy, databaseOutage, securityHeaders } from "./middlewares/security.ts";
import { docsRouter } from "./routes/system/docs.ts";
import { graphiqlAssetsRouter } from "./routes/system/graphiql.ts";
import { evidenceUploadGate, unlessEvidenceUpload } from "./routes/disputes/disputes.paths.ts";

export function buildApp(deps: Deps) {
  const app = createApp();
  app.use("*", async (c, next) => {
    c.set("deps", deps);
    await next();
  });
  // Hardening first (every response, incl. errors and CORS preflights), then the request pipeline;
  // databaseOutage maps a lost PostgreSQL connection to 503 DATABASE_UNAVAILABLE (readToken already queries).
  app.use("*", securityHeaders(), contentSecurityPolicy(), corsPolicy(deps.env.CORS_ORIGINS));
  app.use("*", observe(), databaseOutage(), readToken(), rateLimit(), rejectBadToken(), relayOnBehalf());
  const limitBody = bodyLimit({
    maxSize: deps.env.BODY_LIMIT_BYTES,
    onError: (c) =>
      c.json(
        errorBody(new AppError("PAYLOAD_TOO_LARGE", `Request body exceeds ${deps.env.BODY_LIMIT_BYTES} bytes`)),
        413,
      ),
  });
  // GET/HEAD carry no body (the node adapter never reads one): skipping them saves bodyLimit's
  // `req.raw.body` probe, which builds a full WHATWG Request per read (~9% of a GET's CPU, bench B1).
  app.use(
    "*",
    unlessEvidenceUpload((c, next) => (c.req.method === "GET" || c.req.method === "HEAD" ? next() : limitBody(c, next))),
  );
  app.use("*", unlessEvidenceUpload(requireJsonBody()), evidenceUploadGate(), idempotency());

  const api = apiRouter();
  // The unversioned API and /v2 are the same routes (spec "Versioning").
  app.route("/", api);
  app.route("/v2", api);
  app.route("/", docsRouter());
  app.route("/", graphiqlAssetsRouter());

  const doc = openApiDocument(api);
  app.get("/openapi.json", (c) => c.json(doc));
  app.get("/v2/openapi.json", (c) => c.json(doc));
  return app;
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
        server = serve({ fetch: app.fetch, port, hostname: env.HOST, ...tls }, (info) => {
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
