// The data vault's reads and deletions: the user's off-chain rows (schema "api") and the indexed
// on-chain rows (the `chain` views) for export. Only DB code.
import type pg from "pg";
import { notifyRevokedSql } from "./sessions.repository.ts";

export interface VaultRow { user_id: string; permissions: unknown; initialized_at: Date; last_synced_at: Date | null }

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

export function vaultRepository(pool: pg.Pool, chainSchema: string) {
  const s = `"${chainSchema.replace(/"/g, '""')}"`;
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
      return (await q<VaultRow>(`SELECT user_id, permissions, initialized_at, last_synced_at FROM api.vaults WHERE user_id = $1`, [userId]))[0] ?? null;
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
    async stats(address: string): Promise<{ total_xp: number; level: number } | null> {
      return (await q(`SELECT total_xp, level FROM ${s}.user_stats WHERE address = $1`, [address]))[0] ?? null;
    },
    async xpHistory(address: string) {
      return q(
        `SELECT id, xp_delta, source, reason, mission_id, mission_on_chain_id::text, balance_after, multiplier_bps,
                created_at::text, tx_hash
           FROM ${s}.xp_ledger WHERE "user" = $1 ORDER BY key`,
        [address],
      );
    },
    async achievements(address: string) {
      return q(
        `SELECT token_id::text, achievement_id::text, name, description, image, type, mission_id, minted_at::text, tx_hash
           FROM ${s}.nfts n WHERE n.owner = $1 AND n.soulbound ORDER BY n.minted_at, n.token_id`,
        [address],
      );
    },
    /** On-chain attestations joined with the off-chain comment text (profile area's api.ratings). */
    async ratings(address: string, side: "rater" | "ratee") {
      return q(
        `SELECT r.uid, r.mission_id, r.mission_on_chain_id::text, r.rater, r.ratee, r.score, r.comment AS comment_hash,
                o.comment, r.counted, r.reputation_delta, r.time::text, r.tx_hash
           FROM ${s}.ratings r LEFT JOIN api.ratings o ON o.eas_uid = r.uid
          WHERE r.${side} = $1 ORDER BY r.time, r.uid`,
        [address],
      );
    },
    async disputes(address: string) {
      return q(
        `SELECT d.id, d.on_chain_id::text, d.mission_id, d.poster, d.performer, d.initiator, d.state, d.outcome,
                d.split_percentage, d.created_at::text, d.resolved_at::text, d.finalized_at::text, d.raised_tx_hash,
                r.reason, r.evidence
           FROM ${s}.disputes d
           LEFT JOIN api.dispute_records r ON r.reason_hash = d.reason_hash AND r.dispute_on_chain_id = d.on_chain_id::text
                                       AND r.escrow_address = d.escrow_address AND d.initiator = $1
          WHERE d.poster = $1 OR d.performer = $1 ORDER BY d.created_at, d.id`,
        [address],
      );
    },
    async counts(address: string, userId: string) {
      const [row] = await q(
        `SELECT
           (SELECT count(*)::int FROM ${s}.missions WHERE poster = $1) AS missions_posted,
           (SELECT count(*)::int FROM ${s}.missions WHERE performer = $1) AS missions_performed,
           (SELECT count(*)::int FROM ${s}.guild_members WHERE account = $1 AND active) AS guilds,
           (SELECT count(*)::int FROM ${s}.nfts WHERE owner = $1 AND soulbound) AS achievements,
           (SELECT count(*)::int FROM ${s}.ratings WHERE rater = $1) AS ratings_given,
           (SELECT count(*)::int FROM ${s}.ratings WHERE ratee = $1) AS ratings_received,
           (SELECT count(*)::int FROM ${s}.disputes WHERE poster = $1 OR performer = $1) AS disputes,
           (SELECT count(*)::int FROM ${s}.xp_ledger WHERE "user" = $1) AS xp_entries,
           (SELECT count(*)::int FROM api.notifications WHERE address = $1) AS notifications,
           (SELECT count(*)::int FROM api.device_tokens WHERE user_id = $2) AS device_tokens,
           (SELECT count(*)::int FROM api.location_history WHERE user_id = $2) AS location_history`,
        [address, userId],
      );
      return row as Record<string, number>;
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
