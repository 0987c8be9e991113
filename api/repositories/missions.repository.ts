// Missions as the indexer sees them (Ponder's tables, api/db/chain.ts), joined with the API's off-chain
// details (the commitment the chain currently holds, written for this very mission: escrow and on-chain
// id, since a hash is public and can be copied) and the posters' profiles. Drizzle over the typed
// tables: a row's type is what the select infers from the schemas (camelCase, bigint columns as bigint).
// The mission by id (B1) and the list run as named prepared statements, built once per repository
// (one per filter combination for the list): a builder per call cost ~190 µs of CPU per request.
import crypto from "node:crypto";
import type pg from "pg";
import { and, asc, count, desc, eq, gte, lte, sql, type SQL } from "drizzle-orm";
import { alias, type AnyPgColumn } from "drizzle-orm/pg-core";
import type { SelectResult } from "drizzle-orm/query-builders/select.types";
import type { ChainTables } from "../db/chain.ts";
import type { Db } from "../db/client.ts";
import { missionDetails, users, vaults } from "../db/schema.ts";
import { chainRead } from "./chain-query.ts";
import { jsonRow } from "./json-row.ts";
import { missionViewStatement } from "./mission-view.sql.ts";
import { sharesGuildSql } from "./privacy.repository.ts";

type Chain = Pick<ChainTables, "missions" | "guilds" | "boardEntries" | "settlements" | "userStats" | "guildMembers">;

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

/** The columns a mission view shows (mission-view.ts MissionViewRow), for both selects below. */
function viewColumns(t: Chain, pu: ReturnType<typeof alias<typeof users, "pu">>, fu: ReturnType<typeof alias<typeof users, "fu">>) {
  const { missions: m, guilds: g } = t;
  const d = missionDetails;
  return {
    id: m.id, onChainId: m.onChainId, escrowAddress: m.escrowAddress, poster: m.poster, performer: m.performer,
    guildUuid: m.guildUuid, guildName: g.name, reward: m.reward, ddrAmount: m.ddrAmount,
    state: m.state, proofHash: m.proofHash, refundAmount: m.refundAmount,
    /** Σ partial releases to the performer and Σ partial refunds to the poster (base units). */
    released: m.released, refunded: m.refunded,
    expiresAt: m.expiresAt, createdAt: m.createdAt, acceptedAt: m.acceptedAt, completedAt: m.completedAt,
    title: d.title, description: d.description, category: d.category, latitude: d.latitude, longitude: d.longitude,
    radius: d.radius, metadata: d.metadata,
    /** Eligibility terms from the details (null / false without details). */
    minReputation: d.minReputation,
    premium: sql<(typeof d.$inferSelect)["premium"]>`coalesce(${d.premium}, false)`,
    posterId: pu.id, posterName: pu.displayName, performerId: fu.id, performerName: fu.displayName,
  };
}

/** The one select of a mission row: the chain's columns, its details, the guild's name, the parties' profiles. */
function missionSelect(db: Db, t: Chain) {
  const { missions: m, guilds: g, boardEntries: be } = t;
  const d = missionDetails;
  const pu = alias(users, "pu");
  const fu = alias(users, "fu");
  return db
    .select({
      ...viewColumns(t, pu, fu),
      guildOnChainId: m.guildOnChainId, detailsHash: m.detailsHash,
      /** The highest minGuildXP of the mission's active board entries (guild missions only; null: none). */
      minGuildXP: sql<(typeof be.$inferSelect)["minGuildXP"] | null>`CASE WHEN ${m.guildUuid} IS NOT NULL THEN
        (SELECT max(${be.minGuildXP}) FROM ${be} WHERE ${be.missionId} = ${m.id} AND ${be.active}) END`,
    })
    .from(m)
    .leftJoin(d, detailsOf(t))
    .leftJoin(g, eq(g.id, m.guildUuid))
    .leftJoin(pu, eq(pu.evmAddress, m.poster))
    .leftJoin(fu, eq(fu.evmAddress, m.performer))
    .$dynamic();
}

/**
 * The columns of missionSelect() a mission view shows (mission-view.ts MissionViewRow), plus the
 * privacy settings of the poster and the performer as seen by the viewer (placeholder `viewer`): each
 * party's vault permissions (null: no vault, the defaults; only a party with an API account, a non-null
 * posterId / performerId, has settings) and whether the viewer shares an active guild with them,
 * looked up only when a field is `guilds_only`, as privacy.repository.ts does.
 */
function viewerFields(db: Db, t: Chain) {
  const { guildMembers: gm } = t;
  const pu = alias(users, "pu");
  const fu = alias(users, "fu");
  const pv = alias(vaults, "pv");
  const fv = alias(vaults, "fv");
  const sharesGuild = (account: AnyPgColumn, permissions: AnyPgColumn, k: string) => sharesGuildSql(db, gm, account, permissions, `_${k}`);
  const fields = {
    ...viewColumns(t, pu, fu),
    posterPermissions: pv.permissions, posterSharesGuild: sharesGuild(pu.evmAddress, pv.permissions, "p"),
    performerPermissions: fv.permissions, performerSharesGuild: sharesGuild(fu.evmAddress, fv.permissions, "f"),
  };
  return { aliases: { pu, fu, pv, fv }, fields };
}
type ViewerFields = ReturnType<typeof viewerFields>["fields"];

/**
 * A mission with its parties' privacy settings for one viewer (findForViewer): the fields as drizzle
 * types a select of them with viewerSelect()'s joins (every joined table may be missing).
 */
export type MissionForViewerRow = SelectResult<ViewerFields, "partial", {
  missions: "not-null"; mission_details: "nullable"; guilds: "nullable"; pu: "nullable"; fu: "nullable"; pv: "nullable"; fv: "nullable";
}>;

/** viewerFields() as one JSON column (json-row.ts) with their joins. */
function viewerSelect(db: Db, t: Chain) {
  const { missions: m, guilds: g } = t;
  const d = missionDetails;
  const { aliases: { pu, fu, pv, fv }, fields } = viewerFields(db, t);
  return db
    .select({ row: jsonRow<MissionForViewerRow>(fields) })
    .from(m)
    .leftJoin(d, detailsOf(t))
    .leftJoin(g, eq(g.id, m.guildUuid))
    .leftJoin(pu, eq(pu.evmAddress, m.poster))
    .leftJoin(fu, eq(fu.evmAddress, m.performer))
    .leftJoin(pv, eq(pv.userId, pu.id))
    .leftJoin(fv, eq(fv.userId, fu.id))
    .$dynamic();
}

/** The details written for this very mission (hash, on-chain id and escrow). */
const detailsOf = ({ missions: m }: Pick<Chain, "missions">) =>
  and(eq(missionDetails.detailsHash, m.detailsHash), eq(missionDetails.onChainId, sql`${m.onChainId}::text`), eq(missionDetails.escrowAddress, m.escrowAddress));

/** A mission as the repository returns it: the select's own result type. */
export type MissionRow = Awaited<ReturnType<ReturnType<typeof missionSelect>["execute"]>>[number];

/**
 * Prepared statement names live per connection, and one pool may serve APIs of different views
 * schemas (the e2e helpers): the name carries the schema, so a name always means one SQL text.
 */
const statementTag = (schema: string) => crypto.createHash("sha1").update(schema).digest("hex").slice(0, 10);

const FILTERS = ["state", "category", "guildId", "posterAddress", "performerAddress", "minReward", "maxReward"] as const;
/** Whether a filter applies: a text filter when non-empty, an amount when given. */
const given = (f: MissionFilter, k: (typeof FILTERS)[number]) => (typeof f[k] === "bigint" ? true : !!f[k]);

export function missionsRepository(db: Db, pool: pg.Pool, t: Chain, chainSchema: string) {
  const { missions: m } = t;
  const tag = statementTag(chainSchema);
  const byId = missionSelect(db, t).where(eq(m.id, sql.placeholder("id"))).prepare(`mission_by_id_${tag}`);
  // One JSON column (json-row.ts): pg and drizzle decoding ~35 typed columns was the largest part of a read's CPU.
  const byIdFor = viewerSelect(db, t).where(eq(m.id, sql.placeholder("id"))).prepare(`mission_for_viewer_json_${tag}`);
  // The whole response body built by PostgreSQL (mission-view.sql.ts), for a signed-in viewer and for none.
  const viewFor = missionViewStatement(db, t, true, `mission_view_json_${tag}`);
  const viewPublic = missionViewStatement(db, t, false, `mission_view_json_public_${tag}`);
  const SORT = { createdAt: m.createdAt, rewardAmount: m.reward, expiresAt: m.expiresAt } as const;

  /** The list's two statements for one shape (which filters are set, the order), prepared on first use. */
  const shapes = new Map<string, ReturnType<typeof listStatements>>();
  function listStatements(f: MissionFilter, key: string) {
    const p = (name: string) => sql.placeholder(name);
    const on = (k: (typeof FILTERS)[number], c: SQL) => (given(f, k) ? c : undefined);
    const where = [
      on("state", eq(m.state, p("state"))),
      on("category", sql`lower(${missionDetails.category}) = lower(${p("category")})`),
      on("guildId", eq(m.guildUuid, p("guildId"))),
      on("posterAddress", eq(m.poster, p("posterAddress"))),
      on("performerAddress", eq(m.performer, p("performerAddress"))),
      on("minReward", gte(m.reward, p("minReward"))),
      on("maxReward", lte(m.reward, p("maxReward"))),
    ];
    const cond = and(...where);
    const dir = f.sortOrder === "asc" ? asc : desc;
    return {
      rows: missionSelect(db, t).where(cond).orderBy(dir(SORT[f.sortBy]), dir(m.onChainId))
        .offset(p("skip")).limit(p("take")).prepare(`missions_list_${tag}_${key}`),
      total: db.select({ n: count() }).from(m).leftJoin(missionDetails, detailsOf(t)).where(cond).prepare(`missions_count_${tag}_${key}`),
    };
  }

  return {
    async findById(id: string): Promise<MissionRow | null> {
      const rows = await chainRead(byId.execute({ id }));
      return rows[0] ?? null;
    },
    /**
     * The mission by id with what the privacy rules need to show its parties to `viewer` (lowercase
     * address, or null): one statement, one snapshot (GET /missions/:id; privacy.repository.ts reads
     * the same settings for any list of users).
     */
    async findForViewer(id: string, viewer: string | null): Promise<MissionForViewerRow | null> {
      const rows = await chainRead(byIdFor.execute({ id, viewer }));
      return rows[0]?.row ?? null;
    },
    /**
     * `{"data": singleView()}` of the mission for `viewer` (lowercase, or null) as JSON text; null: no such
     * mission. A named statement on pg itself, its one column as an array row.
     */
    async viewJson(id: string, viewer: string | null): Promise<string | null> {
      const s = viewer === null ? viewPublic : viewFor;
      const res = await chainRead(pool.query<[string]>({ name: s.name, text: s.text, values: s.values(id, viewer), rowMode: "array" }));
      return res.rows[0]?.[0] ?? null;
    },
    async list(f: MissionFilter): Promise<{ rows: MissionRow[]; total: number }> {
      const key = `${FILTERS.map((k) => (given(f, k) ? "1" : "0")).join("")}_${f.sortBy}_${f.sortOrder}`;
      let s = shapes.get(key);
      if (!s) shapes.set(key, (s = listStatements(f, key)));
      const values = {
        state: f.state, category: f.category, guildId: f.guildId,
        posterAddress: f.posterAddress?.toLowerCase(), performerAddress: f.performerAddress?.toLowerCase(),
        minReward: f.minReward?.toString(), maxReward: f.maxReward?.toString(), skip: f.skip, take: f.take,
      };
      const [rows, total] = await Promise.all([chainRead(s.rows.execute(values)), chainRead(s.total.execute(values))]);
      return { rows, total: total[0]!.n };
    },
    /** The split of a completed mission, as the indexer recorded it. */
    async settlement(missionId: string) {
      const s = t.settlements;
      const [row] = await chainRead(
        db.select({ performerAmount: s.performerAmount, protocolAmount: s.protocolAmount, guildAmount: s.guildAmount, labsAmount: s.labsAmount, resolverAmount: s.resolverAmount })
          .from(s).where(eq(s.missionId, missionId)),
      );
      return row ?? null;
    },
    async guildOnChainId(guildUuid: string): Promise<number | null> {
      const [row] = await chainRead(db.select({ onChainId: t.guilds.onChainId }).from(t.guilds).where(eq(t.guilds.id, guildUuid)));
      return row?.onChainId ?? null;
    },
    /**
     * What eligibility reads of a user: reputation and level (user_stats; 0 and 1 without a row) and
     * the guild XP of each active membership (guild uuid -> guild XP). One statement, one snapshot.
     */
    async eligibilityFacts(account: string): Promise<{ reputation: number; level: number; guilds: Map<string, number> }> {
      const { userStats: us, guildMembers: gm } = t;
      const a = account.toLowerCase() as `0x${string}`;
      type Xp = (typeof gm.$inferSelect)["guildXP"];
      const [r] = await chainRead(
        db.select({
          reputation: us.reputation, level: us.level,
          guilds: sql<Record<string, Xp> | null>`(SELECT json_object_agg(${gm.guildUuid}, ${gm.guildXP}) FROM ${gm} WHERE ${gm.account} = ${a} AND ${gm.active})`,
        }).from(sql`(SELECT 1) AS one`).leftJoin(us, eq(us.address, a)),
      );
      return { reputation: r?.reputation ?? 0, level: r?.level ?? 1, guilds: new Map(Object.entries(r?.guilds ?? {})) };
    },
  };
}
export type MissionsRepository = ReturnType<typeof missionsRepository>;
