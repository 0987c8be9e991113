// The API server: createServer(options) builds it (migrations included), listen() serves it.
// Tests and the supervisor use this in-process; api/server.ts runs it as a program.
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
import { attachRealtime, type Realtime } from "./services/discovery/realtime.ts";
import { loadReactors } from "./reactors/index.ts";
import { startReactorRunner, type ReactorRunner } from "./reactors/runner.ts";
import { startWebhookDispatcher, type WebhookDispatcher } from "./services/webhooks/dispatcher.ts";
import { disabledNotice } from "./services/webhooks/disabled-notice.ts";
import { startPushDispatcher } from "./services/push-dispatcher.ts";
import type { OutboxPump } from "./services/outbox-pump.ts";

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
  let realtime: Realtime | undefined;
  // Housekeeping: expired sign-in nonces and idempotency keys (retention 24 h).
  const sweep = setInterval(() => {
    void deps.repos.nonces.purgeExpired().catch(() => {});
    void deps.repos.idempotency.purgeExpired().catch(() => {});
    // Location history retention (spec: 30 days), discovery area.
    void deps.services.discovery.purgeLocationHistory().catch(() => {});
    void deps.services.discovery.purgeChangeFeed().catch(() => {});
    // Vault export logs retention (90 days), community area; an idempotent DELETE in every copy.
    void deps.services.vault.purgeExportLogs().catch(() => {});
    void deps.repos.push.purgeFinished().catch(() => {});
  }, 10 * 60 * 1000);
  sweep.unref();
  // Mission and dispute deadlines, stale rating claims (advisory-lock leader among copies).
  const keeper = deps.keeper;
  keeper.start();
  // Journal reactors (notifications, achievement mints): one leader among the API copies.
  const reactorRunner: ReactorRunner | undefined = env.REACTORS_ENABLED
    ? startReactorRunner(deps, await loadReactors(logger))
    : undefined;
  // Webhooks: every copy sends from the shared outbox (leased rows; see the dispatcher).
  const webhooks: WebhookDispatcher | undefined = env.WEBHOOKS_DISPATCH_ENABLED
    ? startWebhookDispatcher({
        repo: deps.repos.webhooks,
        listen: (onNotify, onLost) => deps.repos.webhooks.listen(onNotify, onLost),
        logger,
        onDisabled: disabledNotice(deps.repos.notifications),
        options: {
          concurrency: env.WEBHOOK_CONCURRENCY, pollMs: env.WEBHOOK_POLL_MS, retryBaseMs: env.WEBHOOK_RETRY_BASE_MS,
          maxAttempts: env.WEBHOOK_MAX_ATTEMPTS, timeoutMs: env.WEBHOOK_TIMEOUT_MS, allowPrivate: env.WEBHOOKS_ALLOW_PRIVATE_URLS,
          maxResponseBytes: 64 * 1024,
        },
      })
    : undefined;
  // Web Push: sent here, never in the reactors (a user's silent endpoints must not hold the journal).
  // Same switch as the webhooks' dispatcher; nothing is queued without VAPID keys.
  const pushes: OutboxPump | undefined = env.WEBHOOKS_DISPATCH_ENABLED && deps.services.community.push.enabled
    ? startPushDispatcher({
        repo: deps.repos.push,
        push: deps.services.community.push,
        logger,
        options: { concurrency: env.PUSH_CONCURRENCY, timeoutMs: env.PUSH_TIMEOUT_MS, pollMs: env.WEBHOOK_POLL_MS },
      })
    : undefined;
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
        realtime = attachRealtime(server as unknown as import("node:http").Server, deps);
      });
    },
    async close() {
      clearInterval(sweep);
      await keeper.stop();
      await realtime?.close();
      await reactorRunner?.stop();
      await webhooks?.stop();
      await pushes?.stop();
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
