// Fixed one-minute windows aligned to the wall clock. Keyed by user id when authenticated, else by
// client IP. Tier: anonymous / user / premium (users.premium).
import type { RateLimitRepository } from "../repositories/rate-limit.repository.ts";

export const WINDOW_MS = 60_000;

/**
 * A store answers synchronously when it can (the in-memory one: the request path then counts without
 * an await), else with a promise (PostgreSQL).
 */
export interface RateLimitStore {
  hit(key: string, windowStart: number): number | Promise<number>;
  peek(key: string, windowStart: number): number | Promise<number>;
}

/**
 * Per process: one Map lookup and an increment a request, no timer and no allocation but a key's first
 * request in a window. The buckets of past windows are swept once a window (on its first request).
 */
export function memoryRateLimitStore(): RateLimitStore {
  const buckets = new Map<string, { windowStart: number; count: number }>();
  let lastSweep = 0;
  const sweep = (windowStart: number) => {
    if (windowStart === lastSweep) return;
    lastSweep = windowStart;
    for (const [k, b] of buckets) if (b.windowStart < windowStart) buckets.delete(k);
  };
  return {
    hit(key, windowStart) {
      sweep(windowStart);
      const b = buckets.get(key);
      if (b && b.windowStart === windowStart) return ++b.count;
      buckets.set(key, { windowStart, count: 1 });
      return 1;
    },
    peek(key, windowStart) {
      const b = buckets.get(key);
      return b && b.windowStart === windowStart ? b.count : 0;
    },
  };
}

export function postgresRateLimitStore(repo: RateLimitRepository): RateLimitStore {
  let lastPurge = 0;
  return {
    hit(key, windowStart) {
      if (windowStart !== lastPurge) {
        lastPurge = windowStart;
        void repo.purgeBefore(windowStart - WINDOW_MS).catch(() => {});
      }
      return repo.hit(key, windowStart);
    },
    peek: (key, windowStart) => repo.peek(key, windowStart),
  };
}

export interface RateLimitTiers {
  anonymous: number;
  user: number;
  premium: number;
}

export interface RateDecision {
  limit: number;
  remaining: number;
  /** Seconds until the current window ends (X-RateLimit-Reset). */
  resetSeconds: number;
  allowed: boolean;
}

/** One fixed-window limit on arbitrary keys (e.g. sign-in messages per address and client). */
export function keyedLimit(store: RateLimitStore, limit: number, now: () => number = Date.now) {
  return {
    limit,
    async hit(key: string): Promise<RateDecision> {
      const t = now();
      const windowStart = Math.floor(t / WINDOW_MS) * WINDOW_MS;
      const count = await store.hit(key, windowStart);
      return {
        limit,
        remaining: Math.max(0, limit - count),
        resetSeconds: Math.max(1, Math.ceil((windowStart + WINDOW_MS - t) / 1000)),
        allowed: count <= limit,
      };
    },
  };
}
export type KeyedLimit = ReturnType<typeof keyedLimit>;

/** Who is counted: a signed-in user (by id, premium tier) or else a client IP. */
export interface RateSubject {
  userId?: string | undefined;
  premium?: boolean | undefined;
  ip: string;
}

/** A decision now, or later when the store is PostgreSQL (the in-memory store answers synchronously). */
export type MaybeDecision = RateDecision | Promise<RateDecision>;

export function rateLimiter(store: RateLimitStore, tiers: RateLimitTiers, now: () => number = Date.now) {
  const decide = (count: number, limit: number, t: number, windowStart: number, counted: boolean): RateDecision => ({
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: Math.max(1, Math.ceil((windowStart + WINDOW_MS - t) / 1000)),
    allowed: !counted || count <= limit,
  });
  const count = (who: RateSubject, counted: boolean): MaybeDecision => {
    const t = now();
    const windowStart = Math.floor(t / WINDOW_MS) * WINDOW_MS;
    const key = who.userId ? `user:${who.userId}` : `ip:${who.ip}`;
    const limit = who.userId ? (who.premium ? tiers.premium : tiers.user) : tiers.anonymous;
    const n = counted ? store.hit(key, windowStart) : store.peek(key, windowStart);
    return typeof n === "number" ? decide(n, limit, t, windowStart, counted) : n.then((c) => decide(c, limit, t, windowStart, counted));
  };
  return {
    hit: (who: RateSubject): MaybeDecision => count(who, true),
    /** Current state without counting (exempt operational endpoints). */
    peek: (who: RateSubject): MaybeDecision => count(who, false),
  };
}
export type RateLimiter = ReturnType<typeof rateLimiter>;
