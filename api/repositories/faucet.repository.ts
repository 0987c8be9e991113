import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";

/** Faucet payouts, one row per wallet: a claim succeeds at most once per cooldown, atomically. */
export function faucetRepository(db: Db) {
  return {
    /**
     * Takes the wallet's claim when it has none younger than `cooldownSeconds` (with the previous payout
     * time, to give it back), else says how many seconds are left. `address` is lowercase.
     */
    async claim(address: string, cooldownSeconds: number): Promise<{ taken: true; previous: Date | null } | { taken: false; retryAfter: number }> {
      const res = await db.execute<{ previous: Date | null }>(sql`
        WITH prev AS (SELECT claimed_at FROM api.faucet_claims WHERE address = ${address})
        INSERT INTO api.faucet_claims AS f (address, claimed_at) VALUES (${address}, now())
        ON CONFLICT (address) DO UPDATE SET claimed_at = now()
          WHERE f.claimed_at <= now() - make_interval(secs => ${cooldownSeconds})
        RETURNING (SELECT claimed_at FROM prev) AS previous`);
      if (res.rows.length) return { taken: true, previous: res.rows[0]!.previous ? new Date(res.rows[0]!.previous) : null };
      const left = await db.execute<{ s: number }>(sql`
        SELECT ceil(extract(epoch FROM claimed_at + make_interval(secs => ${cooldownSeconds}) - now()))::int AS s
        FROM api.faucet_claims WHERE address = ${address}`);
      return { taken: false, retryAfter: Math.max(1, Number(left.rows[0]?.s ?? 1)) };
    },
    /** Gives a claim back after a failed payout (restores the previous payout time). */
    async release(address: string, previous: Date | null): Promise<void> {
      if (previous) await db.execute(sql`UPDATE api.faucet_claims SET claimed_at = ${previous.toISOString()}::timestamptz WHERE address = ${address}`);
      else await db.execute(sql`DELETE FROM api.faucet_claims WHERE address = ${address}`);
    },
  };
}
export type FaucetRepository = ReturnType<typeof faucetRepository>;
