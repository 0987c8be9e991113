// The only reader of process.env. Every setting is validated here; a bad value stops the process
// with a message naming the variable.
import { z } from "zod";

const bool = z
  .enum(["true", "false", "1", "0"])
  .transform((v) => v === "true" || v === "1");
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

export const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  HOST: z.string().min(1).default("0.0.0.0"),
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
  RELAYER_PRIVATE_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hex key")
    .optional(),
  /** TEST HOOK (never in production): the process SIGKILLs itself right after a relayer broadcast (crash-safety e2e). */
  RELAYER_CRASH_AFTER_BROADCAST: bool.default(false),
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
  /** Block explorer base for attestations (<base>/attestation/view/<uid>); default: the API's own /ratings/:id/verify. */
  EXPLORER_URL: z.string().url().optional(),
  /** Journal entries younger than this many blocks wait (finality); default 0 on 31337, 12 elsewhere. */
  ACHIEVEMENT_CONFIRMATIONS: int(0, 1000).optional(),
  /** Run the API's migrations at start (default true). */
  MIGRATE_ON_START: bool.default(true),
  /** Disputes: directory of the local evidence store (content-addressed files). */
  EVIDENCE_DIR: z.string().min(1).default(".data/evidence"),
  /** Disputes: keeper interval (finalize/release after deadlines); 0 disables it. */
  DISPUTE_KEEPER_INTERVAL_MS: int(0, 86_400_000).default(30_000),
  /** Journal reactors (notifications, achievement mints): run in this process (default true). */
  REACTORS_ENABLED: bool.default(true),
  /** How often the reactor runner polls the journal when idle. */
  REACTORS_POLL_MS: int(10, 60_000).default(250),
  /** Web Push (VAPID); delivery is disabled when unset. */
  VAPID_PUBLIC_KEY: z.string().min(1).optional(),
  VAPID_PRIVATE_KEY: z.string().min(1).optional(),
  VAPID_SUBJECT: z.string().min(1).default("mailto:ops@mission-marketplace.invalid"),
  /** WebSocket /ws: subscriptions per connection; client frames per second and burst per connection. */
  WS_MAX_SUBSCRIPTIONS: int(1, 10_000).default(50),
  WS_MSG_RATE_PER_SEC: int(1, 100_000).default(10),
  WS_MSG_BURST: int(1, 100_000).default(20),
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
  if (env.NODE_ENV === "production" && env.RELAYER_CRASH_AFTER_BROADCAST) {
    throw new EnvError([{ variable: "RELAYER_CRASH_AFTER_BROADCAST", reason: "a test hook: not allowed when NODE_ENV=production" }]);
  }
  return env;
}

/** Reads process.env merged with `overrides` (tests, supervisor). */
export function loadEnv(overrides: Record<string, string | undefined> = {}): Env {
  return parseEnv({ ...process.env, ...overrides });
}
