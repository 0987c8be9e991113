// Missions as the indexer sees them (Ponder's views schema), joined with the API's off-chain
// details (the commitment the chain currently holds, written for this very mission: escrow and on-chain
// id, since a hash is public and can be copied) and the posters' profiles.
import type pg from "pg";
import type { MissionState } from "../../domain/index.ts";
import { chainQuery } from "./chain-query.ts";

const q = chainQuery;

export interface MissionRow {
  id: string;
  on_chain_id: string;
  escrow_address: string;
  poster: string;
  performer: string | null;
  guild_on_chain_id: number;
  guild_uuid: string | null;
  guild_name: string | null;
  reward: string;
  ddr_amount: string;
  /** Written by the indexer from the contract enum, so only its names occur. */
  state: MissionState;
  details_hash: string;
  proof_hash: string | null;
  refund_amount: string | null;
  /** Σ partial releases to the performer and Σ partial refunds to the poster (base units). */
  released_amount: string;
  refunded_amount: string;
  expires_at: string;
  created_at: string;
  accepted_at: string | null;
  completed_at: string | null;
  title: string | null;
  description: string | null;
  category: string | null;
  latitude: number | null;
  longitude: number | null;
  radius: number | null;
  metadata: Record<string, unknown> | null;
  /** Eligibility terms from the details (null / false without details). */
  min_reputation: number | null;
  premium: boolean;
  /** The highest minGuildXP of the mission's active board entries (guild missions only; null: none). */
  min_guild_xp: number | null;
  poster_id: string | null;
  poster_name: string | null;
  performer_id: string | null;
  performer_name: string | null;
}

export interface MissionFilter {
  state?: string;
  category?: string;
  guildId?: string;
  posterAddress?: string;
  performerAddress?: string;
  minReward?: bigint;
  maxReward?: bigint;
  sortBy: "createdAt" | "rewardAmount" | "expiresAt";
  sortOrder: "asc" | "desc";
  skip: number;
  take: number;
}

const SORT = { createdAt: "m.created_at", rewardAmount: "m.reward", expiresAt: "m.expires_at" } as const;

export function missionsRepository(pool: pg.Pool, chainSchema: string) {
  const s = `"${chainSchema}"`;
  const select = `
    SELECT m.id, m.on_chain_id::text, m.escrow_address, m.poster, m.performer, m.guild_on_chain_id, m.guild_uuid,
           g.name AS guild_name, m.reward::text, m.ddr_amount::text, m.state, m.details_hash, m.proof_hash,
           m.refund_amount::text, m.released::text AS released_amount, m.refunded::text AS refunded_amount, m.expires_at::text, m.created_at::text, m.accepted_at::text,
           m.completed_at::text, d.title, d.description, d.category, d.latitude, d.longitude, d.radius,
           d.metadata, d.min_reputation, coalesce(d.premium, false) AS premium,
           CASE WHEN m.guild_uuid IS NOT NULL THEN
             (SELECT max(be.min_guild_xp) FROM ${s}.board_entries be WHERE be.mission_id = m.id AND be.active) END AS min_guild_xp,
           pu.id AS poster_id, pu.display_name AS poster_name,
           fu.id AS performer_id, fu.display_name AS performer_name
      FROM ${s}.missions m
      LEFT JOIN api.mission_details d ON d.details_hash = m.details_hash AND d.on_chain_id = m.on_chain_id::text AND d.escrow_address = m.escrow_address
      LEFT JOIN ${s}.guilds g ON g.id = m.guild_uuid
      LEFT JOIN api.users pu ON pu.evm_address = m.poster
      LEFT JOIN api.users fu ON fu.evm_address = m.performer`;

  return {
    async findById(id: string): Promise<MissionRow | null> {
      const res = await q<MissionRow>(pool, `${select} WHERE m.id = $1`, [id]);
      return res.rows[0] ?? null;
    },
    async list(f: MissionFilter): Promise<{ rows: MissionRow[]; total: number }> {
      const where: string[] = [];
      const params: unknown[] = [];
      const add = (clause: string, value: unknown) => {
        params.push(value);
        where.push(clause.replace("?", `$${params.length}`));
      };
      if (f.state) add("m.state = ?", f.state);
      if (f.category) add("lower(d.category) = lower(?)", f.category);
      if (f.guildId) add("m.guild_uuid = ?", f.guildId);
      if (f.posterAddress) add("m.poster = ?", f.posterAddress.toLowerCase());
      if (f.performerAddress) add("m.performer = ?", f.performerAddress.toLowerCase());
      if (f.minReward !== undefined) add("m.reward >= ?", f.minReward.toString());
      if (f.maxReward !== undefined) add("m.reward <= ?", f.maxReward.toString());
      const w = where.length ? `WHERE ${where.join(" AND ")}` : "";
      const order = `ORDER BY ${SORT[f.sortBy]} ${f.sortOrder === "asc" ? "ASC" : "DESC"}, m.on_chain_id ${f.sortOrder === "asc" ? "ASC" : "DESC"}`;
      const [rows, count] = await Promise.all([
        q<MissionRow>(pool, `${select} ${w} ${order} OFFSET ${f.skip} LIMIT ${f.take}`, params),
        q<{ n: string }>(pool, 
          `SELECT count(*)::text AS n FROM ${s}.missions m
             LEFT JOIN api.mission_details d ON d.details_hash = m.details_hash AND d.on_chain_id = m.on_chain_id::text AND d.escrow_address = m.escrow_address ${w}`,
          params,
        ),
      ]);
      return { rows: rows.rows, total: Number(count.rows[0]!.n) };
    },
    async settlement(missionId: string) {
      const res = await q<Record<string, string>>(pool, 
        `SELECT performer_amount::text, protocol_amount::text, guild_amount::text, labs_amount::text,
                resolver_amount::text FROM ${s}.settlements WHERE mission_id = $1`,
        [missionId],
      );
      return res.rows[0] ?? null;
    },
    async guildOnChainId(guildUuid: string): Promise<number | null> {
      const res = await q<{ on_chain_id: number }>(pool, `SELECT on_chain_id FROM ${s}.guilds WHERE id = $1`, [
        guildUuid,
      ]);
      return res.rows[0]?.on_chain_id ?? null;
    },
    /**
     * What eligibility reads of a user: reputation and level (user_stats; 0 and 1 without a row) and
     * the guild XP of each active membership (guild uuid -> guild XP). One statement, one snapshot.
     */
    async eligibilityFacts(account: string): Promise<{ reputation: number; level: number; guilds: Map<string, number> }> {
      const res = await q<{ reputation: number | null; level: number | null; guilds: Record<string, number> | null }>(pool,
        `SELECT (SELECT reputation FROM ${s}.user_stats WHERE address = $1) AS reputation,
                (SELECT level FROM ${s}.user_stats WHERE address = $1) AS level,
                (SELECT json_object_agg(guild_uuid, guild_xp) FROM ${s}.guild_members WHERE account = $1 AND active) AS guilds`,
        [account.toLowerCase()]);
      const r = res.rows[0]!;
      return { reputation: r.reputation ?? 0, level: r.level ?? 1, guilds: new Map(Object.entries(r.guilds ?? {})) };
    },
  };
}
export type MissionsRepository = ReturnType<typeof missionsRepository>;
