// Fixed one-minute windows aligned to the wall clock. Keyed by user id when authenticated, else by
// client IP. Tier: anonymous / user / premium (users.premium).
import type { RateLimitRepository } from "../repositories/rate-limit.repository.ts";

export const WINDOW_MS = 60_000;

export interface RateLimitStore {
  hit(key: string, windowStart: number): Promise<number>;
  peek(key: string, windowStart: number): Promise<number>;
}

export function memoryRateLimitStore(): RateLimitStore {
  const buckets = new Map<string, { windowStart: number; count: number }>();
  let lastSweep = 0;
  const sweep = (windowStart: number) => {
    if (windowStart === lastSweep) return;
    lastSweep = windowStart;
    for (const [k, b] of buckets) if (b.windowStart < windowStart) buckets.delete(k);
  };
  return {
    async hit(key, windowStart) {
      sweep(windowStart);
      const b = buckets.get(key);
      if (b && b.windowStart === windowStart) return ++b.count;
      buckets.set(key, { windowStart, count: 1 });
      return 1;
    },
    async peek(key, windowStart) {
      const b = buckets.get(key);
      return b && b.windowStart === windowStart ? b.count : 0;
    },
  };
}

export function postgresRateLimitStore(repo: RateLimitRepository): RateLimitStore {
  let lastPurge = 0;
  return {
    async hit(key, windowStart) {
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

export function rateLimiter(store: RateLimitStore, tiers: RateLimitTiers, now: () => number = Date.now) {
  const decide = (count: number, limit: number, t: number, windowStart: number): RateDecision => ({
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: Math.max(1, Math.ceil((windowStart + WINDOW_MS - t) / 1000)),
    allowed: count <= limit,
  });
  const subject = (who: { userId?: string; premium?: boolean; ip: string }) =>
    who.userId
      ? { key: `user:${who.userId}`, limit: who.premium ? tiers.premium : tiers.user }
      : { key: `ip:${who.ip}`, limit: tiers.anonymous };
  return {
    async hit(who: { userId?: string; premium?: boolean; ip: string }): Promise<RateDecision> {
      const t = now();
      const windowStart = Math.floor(t / WINDOW_MS) * WINDOW_MS;
      const { key, limit } = subject(who);
      return decide(await store.hit(key, windowStart), limit, t, windowStart);
    },
    /** Current state without counting (exempt operational endpoints). */
    async peek(who: { userId?: string; premium?: boolean; ip: string }): Promise<RateDecision> {
      const t = now();
      const windowStart = Math.floor(t / WINDOW_MS) * WINDOW_MS;
      const { key, limit } = subject(who);
      return { ...decide(await store.peek(key, windowStart), limit, t, windowStart), allowed: true };
    },
  };
}
export type RateLimiter = ReturnType<typeof rateLimiter>;
