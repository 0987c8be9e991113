import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";

/** Shared fixed-window counters for several API copies (RATE_LIMIT_STORE=postgres). */
export function rateLimitRepository(db: Db) {
  return {
    /** Increments the counter of `key` in the window starting at `windowStart`; returns the new count. */
    async hit(key: string, windowStart: number): Promise<number> {
      const res = await db.execute<{ count: number }>(sql`
        INSERT INTO api.rate_limit_buckets AS b (key, window_start, count)
        VALUES (${key}, ${windowStart}, 1)
        ON CONFLICT (key) DO UPDATE SET
          count = CASE WHEN b.window_start = EXCLUDED.window_start THEN b.count + 1 ELSE 1 END,
          window_start = EXCLUDED.window_start
        RETURNING count`);
      return Number(res.rows[0]!.count);
    },
    async peek(key: string, windowStart: number): Promise<number> {
      const res = await db.execute<{ count: number }>(sql`
        SELECT count FROM api.rate_limit_buckets WHERE key = ${key} AND window_start = ${windowStart}`);
      return Number(res.rows[0]?.count ?? 0);
    },
    /** Removes the request limiter's ended windows (not the hour-long relayer budgets, `relay:` keys). */
    async purgeBefore(windowStart: number): Promise<void> {
      await db.execute(sql`DELETE FROM api.rate_limit_buckets WHERE window_start < ${windowStart} AND key NOT LIKE 'relay:%'`);
    },
    /**
     * Counts one for `key` in a window that opens at its first hit and lasts `windowMs` (a new one
     * once that has passed); returns the count and the window's start.
     */
    async hitWindow(key: string, now: number, windowMs: number): Promise<{ count: number; windowStart: number }> {
      const res = await db.execute<{ count: number; window_start: string }>(sql`
        INSERT INTO api.rate_limit_buckets AS b (key, window_start, count)
        VALUES (${key}, ${now}, 1)
        ON CONFLICT (key) DO UPDATE SET
          count = CASE WHEN b.window_start > ${now - windowMs} THEN b.count + 1 ELSE 1 END,
          window_start = CASE WHEN b.window_start > ${now - windowMs} THEN b.window_start ELSE EXCLUDED.window_start END
        RETURNING count, window_start`);
      return { count: Number(res.rows[0]!.count), windowStart: Number(res.rows[0]!.window_start) };
    },
    /** Takes back one hit of `key` counted in the window that began at `windowStart` (nothing once another began). */
    async unhitWindow(key: string, windowStart: number): Promise<void> {
      await db.execute(sql`UPDATE api.rate_limit_buckets SET count = count - 1 WHERE key = ${key} AND window_start = ${windowStart} AND count > 0`);
    },
    /** Removes the windows of keys starting with `prefix` that began before `before`. */
    async purgePrefix(prefix: string, before: number): Promise<void> {
      await db.execute(sql`DELETE FROM api.rate_limit_buckets WHERE key LIKE ${`${prefix}%`} AND window_start < ${before}`);
    },
  };
}
export type RateLimitRepository = ReturnType<typeof rateLimitRepository>;
