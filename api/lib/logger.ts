// Structured JSON logs, one line per event. Never pass secrets (keys, tokens, signatures) here; as a
// second line of defence every line is redacted before it is written:
// - fields named like a credential (authorization, token, signature, secret, password, privateKey...);
// - the exact values registered with registerSecrets() (the API registers its keys and JWT secret);
// - anything shaped like a JWT (three base64url parts starting "eyJ") or a 65-byte ECDSA signature.
export type Level = "debug" | "info" | "warn" | "error";
const ORDER: Record<Level | "silent", number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
  /** Whether a line at `level` is written (callers skip building fields nobody reads). */
  enabled(level: Level): boolean;
}

export const REDACTED = "[redacted]";
const SECRET_KEY = /^(authorization|cookie|set-cookie|token|access_?token|refresh_?token|jwt|signature|sig|secret|.*_secret|password|passphrase|private_?key|privatekey|mnemonic|seed)$/i;
const JWT = /eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{10,}/g;
const SIGNATURE = /0x[0-9a-fA-F]{130}(?![0-9a-fA-F])/g;
const secrets = new Set<string>();

/** Values that must never appear in a log line (keys, secrets); also with and without their 0x prefix. */
export function registerSecrets(values: (string | undefined)[]): void {
  for (const v of values) {
    if (!v || v.length < 8) continue;
    secrets.add(v);
    if (/^0x[0-9a-fA-F]+$/.test(v)) {
      secrets.add(v.slice(2));
      secrets.add(v.slice(2).toLowerCase());
      secrets.add(v.slice(2).toUpperCase());
    }
  }
}

/** Redacts one serialised line (exact secret values and JWT / signature shapes). */
export function redactLine(line: string): string {
  let out = line.replace(JWT, REDACTED).replace(SIGNATURE, REDACTED);
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join(REDACTED);
  return out;
}

export function createLogger(
  level: Level | "silent" = "info",
  base: Record<string, unknown> = {},
  write: (line: string) => void = (l) => process.stdout.write(l + "\n"),
): Logger {
  const log = (lvl: Level) => (msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[lvl] < ORDER[level]) return;
    const line = JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...base, ...fields }, (k, v) =>
      k && SECRET_KEY.test(k) && v !== null && v !== undefined && typeof v !== "object" ? REDACTED : typeof v === "bigint" ? v.toString() : v,
    );
    write(redactLine(line));
  };
  return {
    debug: log("debug"),
    info: log("info"),
    warn: log("warn"),
    error: log("error"),
    child: (fields) => createLogger(level, { ...base, ...fields }, write),
    enabled: (lvl) => ORDER[lvl] >= ORDER[level],
  };
}
