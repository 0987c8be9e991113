// The data vault's reads and deletions: the user's off-chain rows (schema "api") and the indexed
// on-chain rows (the `chain` views, through the typed Ponder tables) for export. Only DB code.
import { and, asc, count, eq, or, sql, type SQLWrapper } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type pg from "pg";
import type { ChainTables } from "../db/chain.ts";
import type { Db } from "../db/client.ts";
import { ratings as apiRatings } from "../db/profile.schema.ts";
import { deviceTokens, notifications } from "../db/community.schema.ts";
import { locationHistory } from "../db/discovery.schema.ts";
import { disputeRecords, users, vaults } from "../db/schema.ts";
import { chainRead } from "./chain-query.ts";
import { notifyRevokedSql } from "./sessions.repository.ts";

export type VaultRow = typeof vaults.$inferSelect;
type Chain = Pick<ChainTables, "userStats" | "xpLedger" | "nfts" | "ratings" | "disputes" | "missions" | "guildMembers">;
type Hex = `0x${string}`;

/** Rows removed per deletable category (keys are recorded in api.vault_deletions.categories). */
export interface DeletionCounts {
  profile: number;
  locationHistory: number;
  activityHistory: number;
  notificationPreferences: number;
  deviceTokens: number;
  notifications: number;
  authNonces: number;
  idempotencyKeys: number;
  rateLimitBuckets: number;
  builderScoreRefreshes: number;
  /** Registered webhook endpoints (their queued deliveries and attempt logs go with them). */
  webhookEndpoints: number;
}

export function vaultRepository(pool: pg.Pool, db: Db, chain: Chain) {
  const { userStats: st, xpLedger: x, nfts: n, ratings: r, disputes: d, missions: m, guildMembers: gm } = chain;
  const o = alias(apiRatings, "o"); // the chain's table is "ratings" too
  const q = async <T = any>(text: string, params: unknown[] = []): Promise<T[]> => (await pool.query(text, params)).rows as T[];
  return {
    /** Creates the vault with the given permissions if missing; true when it was created now. */
    async ensure(userId: string, permissions: unknown): Promise<boolean> {
      const rows = await q(
        `INSERT INTO api.vaults (user_id, permissions) VALUES ($1, $2::jsonb) ON CONFLICT (user_id) DO NOTHING RETURNING user_id`,
        [userId, JSON.stringify(permissions)],
      );
      return rows.length > 0;
    },
    async find(userId: string): Promise<VaultRow | null> {
      const [row] = await db.select().from(vaults).where(eq(vaults.userId, userId));
      return row ?? null;
    },
    /** Read-modify-write under a row lock, so concurrent PATCHes of different fields both land. */
    async updatePermissions<T>(userId: string, merge: (stored: unknown) => T): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const { rows } = await client.query(`SELECT permissions FROM api.vaults WHERE user_id = $1 FOR UPDATE`, [userId]);
        const merged = merge(rows[0]?.permissions);
        await client.query(`UPDATE api.vaults SET permissions = $2::jsonb WHERE user_id = $1`, [userId, JSON.stringify(merged)]);
        await client.query("COMMIT");
        return merged;
      } catch (err) {
        await client.query("ROLLBACK").catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    /** The addresses among `addresses` whose vault was deleted at or after the given block (or its time, for deletions made while the chain head was unknown). */
    async deletedSince(addresses: string[], block: bigint, blockTime: Date): Promise<Set<string>> {
      const rows = await q<{ address: string }>(
        `SELECT DISTINCT u.evm_address AS address
           FROM api.vault_deletions d JOIN api.users u ON u.id = d.user_id
          WHERE u.evm_address = ANY($1::text[])
            AND (d.chain_block >= $2 OR (d.chain_block IS NULL AND d.deleted_at >= $3))`,
        [addresses, block.toString(), blockTime],
      );
      return new Set(rows.map((r) => r.address));
    },
    async saveSummary(userId: string, summary: unknown): Promise<Date> {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const { rows } = await client.query(
          `INSERT INTO api.vault_summaries (user_id, summary, synced_at) VALUES ($1, $2::jsonb, now())
           ON CONFLICT (user_id) DO UPDATE SET summary = EXCLUDED.summary, synced_at = EXCLUDED.synced_at RETURNING synced_at`,
          [userId, JSON.stringify(summary)],
        );
        await client.query(`UPDATE api.vaults SET last_synced_at = $2 WHERE user_id = $1`, [userId, rows[0].synced_at]);
        await client.query("COMMIT");
        return rows[0].synced_at as Date;
      } catch (err) {
        await client.query("ROLLBACK").catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },

    // ---- export reads (addresses lowercase) ----
    async stats(address: string) {
      const [row] = await chainRead(db.select({ totalXP: st.totalXP, level: st.level }).from(st).where(eq(st.address, address as Hex)));
      return row ?? null;
    },
    async xpHistory(address: string) {
      return chainRead(
        db.select({
          id: x.id, xpDelta: x.xpDelta, source: x.source, reason: x.reason, missionId: x.missionId, missionOnChainId: x.missionOnChainId,
          balanceAfter: x.balanceAfter, multiplierBps: x.multiplierBps, createdAt: x.createdAt, txHash: x.txHash,
        }).from(x).where(eq(x.user, address as Hex)).orderBy(asc(x.key)),
      );
    },
    async achievements(address: string) {
      return chainRead(
        db.select({
          tokenId: n.tokenId, achievementId: n.achievementId, name: n.name, description: n.description, image: n.image, type: n.type,
          missionId: n.missionId, mintedAt: n.mintedAt, txHash: n.txHash,
        }).from(n).where(and(eq(n.owner, address as Hex), eq(n.soulbound, true))).orderBy(asc(n.mintedAt), asc(n.tokenId)),
      );
    },
    /** On-chain attestations joined with the off-chain comment text (profile area's api.ratings). */
    async ratings(address: string, side: "rater" | "ratee") {
      return chainRead(
        db.select({
          uid: r.uid, missionId: r.missionId, missionOnChainId: r.missionOnChainId, rater: r.rater, ratee: r.ratee, score: r.score,
          commentHash: r.comment, comment: o.comment, counted: r.counted, reputationDelta: r.reputationDelta, time: r.time, txHash: r.txHash,
        }).from(r).leftJoin(o, eq(o.easUid, r.uid))
          .where(eq(r[side], address as Hex)).orderBy(asc(r.time), asc(r.uid)),
      );
    },
    async disputes(address: string) {
      const rec = disputeRecords;
      return chainRead(
        db.select({
          id: d.id, onChainId: d.onChainId, missionId: d.missionId, poster: d.poster, performer: d.performer, initiator: d.initiator,
          state: d.state, outcome: d.outcome, splitPercentage: d.splitPercentage, createdAt: d.createdAt, resolvedAt: d.resolvedAt,
          finalizedAt: d.finalizedAt, raisedTxHash: d.raisedTxHash, reason: rec.reason, evidence: rec.evidence,
        }).from(d)
          .leftJoin(rec, and(
            eq(rec.reasonHash, d.reasonHash), eq(rec.disputeOnChainId, sql`${d.onChainId}::text`), eq(rec.escrowAddress, d.escrowAddress),
            eq(d.initiator, address as Hex),
          ))
          .where(or(eq(d.poster, address as Hex), eq(d.performer, address as Hex))).orderBy(asc(d.createdAt), asc(d.id)),
      );
    },
    /** The user's rows per category, in one statement (scalar subqueries over the user's api.users row). */
    async counts(address: string, userId: string) {
      const a = address as Hex;
      const n_ = (q: SQLWrapper) => sql<number>`(${q})::int`.mapWith(Number);
      const c = { n: count() };
      const [row] = await chainRead(
        db.select({
          missionsPosted: n_(db.select(c).from(m).where(eq(m.poster, a))),
          missionsPerformed: n_(db.select(c).from(m).where(eq(m.performer, a))),
          guilds: n_(db.select(c).from(gm).where(and(eq(gm.account, a), eq(gm.active, true)))),
          achievements: n_(db.select(c).from(n).where(and(eq(n.owner, a), eq(n.soulbound, true)))),
          ratingsGiven: n_(db.select(c).from(r).where(eq(r.rater, a))),
          ratingsReceived: n_(db.select(c).from(r).where(eq(r.ratee, a))),
          disputes: n_(db.select(c).from(d).where(or(eq(d.poster, a), eq(d.performer, a)))),
          xpEntries: n_(db.select(c).from(x).where(eq(x.user, a))),
          notifications: n_(db.select(c).from(notifications).where(eq(notifications.address, address))),
          deviceTokens: n_(db.select(c).from(deviceTokens).where(eq(deviceTokens.userId, userId))),
          locationHistory: n_(db.select(c).from(locationHistory).where(eq(locationHistory.userId, userId))),
        }).from(users).where(eq(users.id, userId)),
      );
      return row!;
    },

    async logExport(userId: string, bytes: number): Promise<void> {
      await q(`INSERT INTO api.vault_export_logs (user_id, bytes) VALUES ($1, $2)`, [userId, bytes]);
    },
    /** Retention: idempotent, safe to run from every API copy. */
    async purgeExportLogs(days: number): Promise<number> {
      const r = await pool.query(`DELETE FROM api.vault_export_logs WHERE exported_at < now() - make_interval(days => $1)`, [days]);
      return r.rowCount ?? 0;
    },

    /**
     * Removes the deletable (off-chain) categories in one transaction and resets the profile in
     * place (same id and wallet address; fields, createdAt and vault back to a fresh account's).
     */
    /**
     * `chainBlock`: the chain head at the deletion (null when the RPC is down: the time is used then).
     * Journal entries up to it predate the deletion and never notify this address again (reactors).
     */
    async deleteAll(user: { id: string; address: string }, freshPermissions: unknown, chainBlock: bigint | null = null): Promise<DeletionCounts> {
      const client = await pool.connect();
      const n = async (text: string, params: unknown[]) => (await client.query(text, params)).rowCount ?? 0;
      try {
        await client.query("BEGIN");
        const counts: DeletionCounts = {
          profile: await n(
            `UPDATE api.users SET display_name = '', bio = '', avatar = '', solana_address = NULL, created_at = now(), last_active_at = now()
              WHERE id = $1 AND (display_name <> '' OR bio <> '' OR avatar <> '' OR solana_address IS NOT NULL)`,
            [user.id],
          ),
          locationHistory: await n(`DELETE FROM api.location_history WHERE user_id = $1`, [user.id]),
          activityHistory: await n(`DELETE FROM api.discovery_events WHERE user_id = $1`, [user.id]),
          notificationPreferences: await n(`DELETE FROM api.notification_preferences WHERE address = $1`, [user.address]),
          deviceTokens: await n(`DELETE FROM api.device_tokens WHERE user_id = $1`, [user.id]),
          notifications: await n(`DELETE FROM api.notifications WHERE address = $1`, [user.address]),
          authNonces: await n(`DELETE FROM api.auth_nonces WHERE address = $1`, [user.address]),
          idempotencyKeys: await n(`DELETE FROM api.idempotency_keys WHERE scope = $1`, [`user:${user.id}`]),
          // The request limiter's and the sign-in issuance limiter's (it names the client's IP); the relayer
          // budget's `relay:` bucket stays (an abuse limit, not personal activity).
          rateLimitBuckets: await n(`DELETE FROM api.rate_limit_buckets WHERE key = $1 OR key LIKE $2 OR key LIKE $3`, [`user:${user.id}`, `user:${user.id}:%`, `siwe:${user.address}:%`]),
          // Throttle records of the builder-score refresh: activity data like the rest of the session data.
          builderScoreRefreshes: await n(`DELETE FROM api.builder_score_refreshes WHERE address = $1`, [user.address]),
          // The user's own configuration and its delivery logs (they name the user's missions and URLs).
          webhookEndpoints: await n(`DELETE FROM api.webhook_endpoints WHERE user_id = $1`, [user.id]),
          // Kept: api.faucet_claims (the address's last payout, a public mint on-chain anyway) is the
          // faucet's hourly limit, and a deletion must not reset it. So are the relayer budget's
          // `relay:<address>` buckets (not matched by the keys above).
        };
        // A fresh profile from here on: every token issued so far stops working at once.
        await client.query(`UPDATE api.users SET created_at = now(), session_epoch = session_epoch + 1 WHERE id = $1`, [user.id]);
        // Open /ws connections of the old sessions are closed by every copy when this commits.
        await client.query(notifyRevokedSql, [user.id]);
        await client.query(`DELETE FROM api.vault_summaries WHERE user_id = $1`, [user.id]);
        await client.query(
          `INSERT INTO api.vaults (user_id, permissions, initialized_at, last_synced_at) VALUES ($1, $2::jsonb, now(), NULL)
           ON CONFLICT (user_id) DO UPDATE SET permissions = EXCLUDED.permissions, initialized_at = now(), last_synced_at = NULL`,
          [user.id, JSON.stringify(freshPermissions)],
        );
        await client.query(`INSERT INTO api.vault_deletions (user_id, categories, chain_block) VALUES ($1, $2::jsonb, $3)`, [
          user.id,
          JSON.stringify(counts),
          chainBlock === null ? null : chainBlock.toString(),
        ]);
        await client.query("COMMIT");
        return counts;
      } catch (err) {
        await client.query("ROLLBACK").catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
  };
}
export type VaultRepository = ReturnType<typeof vaultRepository>;
