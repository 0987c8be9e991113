// Structured JSON logs, one line per event. Never pass secrets (keys, tokens, signatures) here.
export type Level = "debug" | "info" | "warn" | "error";
const ORDER: Record<Level | "silent", number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

export function createLogger(
  level: Level | "silent" = "info",
  base: Record<string, unknown> = {},
  write: (line: string) => void = (l) => process.stdout.write(l + "\n"),
): Logger {
  const log = (lvl: Level) => (msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[lvl] < ORDER[level]) return;
    write(
      JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...base, ...fields }, (_k, v) =>
        typeof v === "bigint" ? v.toString() : v,
      ),
    );
  };
  return {
    debug: log("debug"),
    info: log("info"),
    warn: log("warn"),
    error: log("error"),
    child: (fields) => createLogger(level, { ...base, ...fields }, write),
  };
}
