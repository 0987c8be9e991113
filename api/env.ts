// The only reader of process.env. Every setting is validated here; a bad value stops the process
// with a message naming the variable.
import { z } from "zod";

const bool = z
  .enum(["true", "false", "1", "0"])
  .transform((v) => v === "true" || v === "1");
const HEX_KEY = /^0x[0-9a-fA-F]{64}$/;
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

export const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  HOST: z.string().min(1).default("127.0.0.1"),
  PORT: int(0, 65535).default(3000),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL"),
  /** Ponder's views schema (`ponder start --views-schema`). */
  CHAIN_SCHEMA: z.string().regex(/^[a-z_][a-z0-9_]*$/).default("chain"),
  RPC_URL: z.string().url().default("http://127.0.0.1:8545"),
  /** Chain id; when absent, taken from the deployment file. */
  CHAIN_ID: int(1, 2 ** 53 - 1).optional(),
  DEPLOYMENT_FILE: z.string().min(1).optional(),
  INDEXER_URL: z.string().url().default("http://127.0.0.1:42069"),
  /** Bounded wait for the indexer to reach a mined transaction's block (read-your-writes). */
  INDEXER_WAIT_MS: int(0, 60_000).default(5_000),
  JWT_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  JWT_ISSUER: z.string().min(1).default("mission-marketplace-api"),
  JWT_AUDIENCE: z.string().min(1).default("mission-marketplace"),
  /** SIWE domain (host[:port]) and URI the messages are bound to. Default: localhost:PORT. */
  SIWE_DOMAIN: z.string().min(1).optional(),
  SIWE_URI: z.string().url().optional(),
  /** Lifetime of a SIWE message / nonce (spec: 5 minutes). */
  AUTH_NONCE_TTL_SECONDS: int(1, 3600).default(300),
  /** Sign-in messages one client IP may request per address per minute (past it 429 RATE_LIMITED). */
  AUTH_MESSAGES_PER_MIN: int(1, 1_000_000).default(5),
  /** Unused, unexpired sign-in messages an address may have at once, from all clients (past it 429). */
  AUTH_LIVE_MESSAGES_MAX: int(1, 10_000).default(50),
  RELAYER_PRIVATE_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hex key")
    .optional(),
  /**
   * The relayer key pool: comma-separated 0x keys. Key 0 is the primary (the deployment's relayer: it
   * holds the service's roles and is the EAS attester); with an executor in the deployment the others
   * forward users' calls through it. Unset: RELAYER_PRIVATE_KEY as a one-key pool.
   */
  RELAYER_PRIVATE_KEYS: z
    .string()
    .transform((v) => v.split(",").map((k) => k.trim()).filter(Boolean))
    .refine((keys) => keys.length > 0 && keys.every((k) => HEX_KEY.test(k)), "must be a comma-separated list of 0x-prefixed 32-byte hex keys")
    .refine((keys) => new Set(keys.map((k) => k.toLowerCase())).size === keys.length, "lists the same key twice")
    .transform((keys) => keys as `0x${string}`[])
    .optional(),
  /** The most the relayer pays per gas, in gwei (decimal, up to 9 places). Unset: no cap on 31337, 200 gwei elsewhere. */
  RELAYER_MAX_FEE_GWEI: z.string().regex(/^\d{1,9}(\.\d{1,9})?$/, "must be a decimal number of gwei (at most 9 decimals)").optional(),
  /** How long a write waits for the network fee to fall under the cap before 503 FEE_CAP_EXCEEDED. */
  RELAYER_FEE_WAIT_MS: int(0, 600_000).default(10_000),
  /** Below this ETH balance (wei, decimal) a relayer key makes /health report "degraded" (default 0.05 ETH). */
  RELAYER_MIN_BALANCE_WEI: z.string().regex(/^\d{1,30}$/, "must be an integer number of wei").default("50000000000000000"),
  /** How often each relayer key's balance is read (0: only on /health and after a refused send). */
  RELAYER_BALANCE_EVERY_MS: int(0, 3_600_000).default(10_000),
  /** Blocks a relayer tx may wait unmined before it is re-sent with higher fees (same nonce); 0: never. */
  RELAYER_REPLACE_AFTER_BLOCKS: int(0, 10_000).default(3),
  /** TEST HOOK (never in production): the process SIGKILLs itself right after a relayer broadcast (crash-safety e2e). */
  RELAYER_CRASH_AFTER_BROADCAST: bool.default(false),
  /** Diagnostic (off by default): a file each POST's stage timestamps are appended to (api/lib/stage-trace.ts). */
  STAGE_TRACE_FILE: z.string().optional(),
  /** Relayed transactions each wallet may cause per hour (docs/decisions.md "Relayer budget"). */
  RELAYER_TX_PER_HOUR: int(1, 1_000_000).default(600),
  RATE_LIMIT_STORE: z.enum(["memory", "postgres"]).default("memory"),
  RATE_LIMIT_ANON_PER_MIN: int(1, 1_000_000).default(30),
  RATE_LIMIT_USER_PER_MIN: int(1, 1_000_000).default(300),
  RATE_LIMIT_PREMIUM_PER_MIN: int(1, 1_000_000).default(1000),
  /**
   * CORS: comma-separated browser origins allowed to call the API (e.g. "https://app.example.com,http://localhost:5173"),
   * or "*" for any origin. Unset/empty (default): no cross-origin access (same-origin pages only). Bearer tokens, no cookies.
   */
  CORS_ORIGINS: z
    .string()
    .default("")
    .transform((v) => v.split(",").map((o) => o.trim()).filter(Boolean))
    .refine((list) => list.every((o) => o === "*" || /^https?:\/\/[^/\s]+$/.test(o)), "each origin must be scheme://host[:port] or *"),
  /** HTTPS (and WSS) with TLS 1.3 as the minimum: PEM certificate chain and private key, set both or neither. */
  TLS_CERT_FILE: z.string().min(1).optional(),
  TLS_KEY_FILE: z.string().min(1).optional(),
  /** Trust the first X-Forwarded-For hop as the client IP (only behind a proxy you run). */
  TRUST_PROXY: bool.default(false),
  BODY_LIMIT_BYTES: int(1, 10 * 1024 * 1024).default(64 * 1024),
  // Profile area (docs/profile-notes.md)
  /** Builder-score provider: GET <url>/<address> -> { score }. Unset: nobody gets a builder bonus. */
  BUILDER_SCORE_URL: z.string().url().optional(),
  /** Pays the gas of delegated rating attestations; default: the relayer key. */
  SPONSOR_PRIVATE_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hex key")
    .optional(),
  /** EAS explorer base for attestations (<base>/attestation/view/<uid>); default: the known chain's (indexer/lib/known-chains.ts), else the API's own /ratings/:id/verify. */
  EXPLORER_URL: z.string().url().optional(),
  /** Mints only: overrides CONFIRMATIONS for the achievement reactor. */
  ACHIEVEMENT_CONFIRMATIONS: int(0, 1000).optional(),
  /**
   * Blocks on top of an event before irreversible effects (achievement mints, webhooks) act on it;
   * default 0 on 31337, the known chain's figure (indexer/lib/known-chains.ts), else 12.
   */
  CONFIRMATIONS: int(0, 1000).optional(),
  /** Run the API's migrations at start (default true). */
  MIGRATE_ON_START: bool.default(true),
  /** Disputes: directory of the local evidence store (content-addressed files). */
  EVIDENCE_DIR: z.string().min(1).default(".data/evidence"),
  /**
   * The deadline keeper's pass interval (missions expire / release after review, disputes finalize /
   * release, stale rating claims); 0 disables it. Default 5 s, so an expiry acts within seconds.
   */
  KEEPER_INTERVAL_MS: int(0, 86_400_000).optional(),
  /** Journal reactors (notifications, achievement mints): run in this process (default true). */
  REACTORS_ENABLED: bool.default(true),
  /** How often the reactor runner polls the journal when idle. */
  REACTORS_POLL_MS: int(10, 60_000).default(250),
  /** POST /faucet beyond the local chain 31337 (and only when the deployment's stablecoin is the test token). */
  FAUCET_ENABLED: bool.default(false),
  /** Web Push (VAPID); delivery is disabled when unset. */
  VAPID_PUBLIC_KEY: z.string().min(1).optional(),
  VAPID_PRIVATE_KEY: z.string().min(1).optional(),
  VAPID_SUBJECT: z.string().min(1).default("mailto:ops@mission-marketplace.invalid"),
  /** Web Push: allow plain http endpoints and targets on loopback, private and link-local addresses (local development only). */
  PUSH_ALLOW_PRIVATE_URLS: bool.default(false),
  /** Devices (push tokens and Web Push subscriptions) one user may register. */
  PUSH_MAX_DEVICES_PER_USER: int(1, 1000).default(10),
  /** Web Push: one send's time limit (connect + response). */
  PUSH_TIMEOUT_MS: int(100, 60_000).default(5_000),
  /** Web Push: sends in flight per API copy (one user's pushes go one at a time). */
  PUSH_CONCURRENCY: int(1, 1000).default(16),
  /** WebSocket /ws: subscriptions per connection; client frames per second and burst per connection. */
  WS_MAX_SUBSCRIPTIONS: int(1, 10_000).default(50),
  WS_MSG_RATE_PER_SEC: int(1, 100_000).default(10),
  WS_MSG_BURST: int(1, 100_000).default(20),
  /** WebSocket /ws: open connections per client IP and per signed-in user (past them the upgrade is 429). */
  WS_MAX_CONNECTIONS_PER_IP: int(1, 1_000_000).default(50),
  WS_MAX_CONNECTIONS_PER_USER: int(1, 1_000_000).default(20),
  /**
   * WebSocket /ws: how often open sessions are re-checked against the database (revocations missed
   * while the LISTEN connection was down; expired tokens). A revocation itself closes sockets at once.
   */
  WS_SESSION_RECHECK_MS: int(1_000, 3_600_000).default(30_000),
  /** Webhooks: allow targets on loopback, private and link-local addresses (local development only). */
  WEBHOOKS_ALLOW_PRIVATE_URLS: bool.default(false),
  /** Webhooks: send the outbox from this process (default true; every copy may). */
  WEBHOOKS_DISPATCH_ENABLED: bool.default(true),
  /** Webhooks: first retry wait; later ones double (capped at 480 x), +-25 % jitter. */
  WEBHOOK_RETRY_BASE_MS: int(1, 3_600_000).default(60_000),
  /** Webhooks: attempts of one event before it is given up and its endpoint disabled. */
  WEBHOOK_MAX_ATTEMPTS: int(1, 100).default(12),
  /** Webhooks: one attempt's time limit (connect + response). */
  WEBHOOK_TIMEOUT_MS: int(100, 60_000).default(10_000),
  /** Webhooks: deliveries in flight per API copy (at most one per endpoint). */
  WEBHOOK_CONCURRENCY: int(1, 1000).default(16),
  /**
   * Webhooks: the longest an idle dispatcher sleeps between two looks at the outbox. It is woken by
   * PostgreSQL on a new delivery or a retry's new time and wakes itself at the next due one, so this
   * is only a safety net.
   */
  WEBHOOK_POLL_MS: int(10, 60_000).default(30_000),
});

export type Env = z.infer<typeof EnvSchema>;

export class EnvError extends Error {
  constructor(public readonly issues: { variable: string; reason: string }[]) {
    super(
      "Invalid configuration: " + issues.map((i) => `${i.variable}: ${i.reason}`).join("; "),
    );
    this.name = "EnvError";
  }
}

/** Validates `source` (default: process.env). Throws EnvError naming each bad variable. */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  // Empty strings count as unset, as in most dotenv setups.
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([, v]) => v !== undefined && v !== ""),
  );
  const result = EnvSchema.safeParse(cleaned);
  if (!result.success) {
    throw new EnvError(
      result.error.issues.map((i) => ({ variable: String(i.path[0] ?? "?"), reason: i.message })),
    );
  }
  const env = result.data;
  if (env.NODE_ENV === "production" && !env.JWT_SECRET) {
    throw new EnvError([{ variable: "JWT_SECRET", reason: "required when NODE_ENV=production" }]);
  }
  if (!env.TLS_CERT_FILE !== !env.TLS_KEY_FILE) {
    const missing = env.TLS_CERT_FILE ? "TLS_KEY_FILE" : "TLS_CERT_FILE";
    throw new EnvError([{ variable: missing, reason: "TLS_CERT_FILE and TLS_KEY_FILE go together" }]);
  }
  if (env.RELAYER_PRIVATE_KEYS && env.RELAYER_PRIVATE_KEY && env.RELAYER_PRIVATE_KEYS[0]!.toLowerCase() !== env.RELAYER_PRIVATE_KEY.toLowerCase()) {
    throw new EnvError([{ variable: "RELAYER_PRIVATE_KEY", reason: "when RELAYER_PRIVATE_KEYS is set, it must be unset or RELAYER_PRIVATE_KEYS' first key (the primary)" }]);
  }
  if (env.NODE_ENV === "production" && env.RELAYER_CRASH_AFTER_BROADCAST) {
    throw new EnvError([{ variable: "RELAYER_CRASH_AFTER_BROADCAST", reason: "a test hook: not allowed when NODE_ENV=production" }]);
  }
  return env;
}

/** The relayer pool's keys, primary first: RELAYER_PRIVATE_KEYS, else RELAYER_PRIVATE_KEY, else none (anvil's account 0 on 31337). */
export const relayerKeys = (env: Env): `0x${string}`[] =>
  env.RELAYER_PRIVATE_KEYS ?? (env.RELAYER_PRIVATE_KEY ? [env.RELAYER_PRIVATE_KEY as `0x${string}`] : []);

export const DEFAULT_KEEPER_INTERVAL_MS = 5_000;
export const keeperIntervalMs = (env: Env): number =>
  env.KEEPER_INTERVAL_MS ?? DEFAULT_KEEPER_INTERVAL_MS;

/** Reads process.env merged with `overrides` (tests, supervisor). */
export function loadEnv(overrides: Record<string, string | undefined> = {}): Env {
  return parseEnv({ ...process.env, ...overrides });
}
