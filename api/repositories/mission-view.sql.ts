// GET /missions/:id's response body built by PostgreSQL (bench B1): the single view of
// api/services/mission-view.ts (singleView, through the privacy lens of api/services/privacy.ts and the
// location rule of api/services/discovery/location-privacy.ts) in the spec's `{"data": ...}` envelope,
// as one json value for one viewer (a lowercase address, or none: a statement of its own), sent on as
// text. Node then neither decodes a row, nor builds a view, nor serialises it (docs/decisions.md "B1:
// the single mission's view built by PostgreSQL"). The JavaScript view stays the definition (lists,
// WebSocket frames, write responses, the vault export); test/e2e/mission-view-sql.test.ts holds the
// two equal for every kind of reader.
// Written for PostgreSQL's per-execution cost: short aliases, few expression nodes (each execution
// copies the statement's text and walks and initialises its expression tree) and no vault join (each
// party's name visibility is on its user row, api.users.name_visibility, migration 0032).
import { and, eq, Placeholder, sql, type SQL } from "drizzle-orm";
import { alias, type AnyPgColumn } from "drizzle-orm/pg-core";
import { DECIMALS, HOLDING_STATES } from "../../domain/index.ts";
import type { ChainTables } from "../db/chain.ts";
import type { Db } from "../db/client.ts";
import { missionDetails, users } from "../db/schema.ts";
import { sharesGuildSql } from "./privacy.repository.ts";

/** formatAmount (domain/money.ts): base units times 10^-6 is a numeric of scale 6, "whole.fraction". */
const amount = (x: AnyPgColumn | SQL) => sql`(${x} * ${sql.raw((10 ** -DECIMALS).toFixed(DECIMALS))})::text`;
/** new Date(s * 1000).toISOString() of unix seconds; null stays null. */
const iso = (x: AnyPgColumn) => sql`to_char(to_timestamp(${x}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
/**
 * "api"."cell6_center" (migration 0013, the read model's public position) written out: a STRICT
 * function over a body PostgreSQL cannot prove strict (least()) is not inlined, and each call would
 * run as a function of its own.
 */
const cellCentre = (deg: AnyPgColumn, span: 90 | 180) => {
  const w = sql.raw(String((2 * span) / 32768));
  return sql`floor((${sql.raw(String(-span))} + (least(32767, floor((${deg} + ${sql.raw(String(span))}) / ${w})) + 0.5) * ${w}) * 1e6 + 0.5) / 1e6`;
};

/** One party as the viewer may see it (mission-view.ts party() through the lens, privacy.ts visibleTo). */
type Person = { id: AnyPgColumn; displayName: AnyPgColumn; evmAddress: AnyPgColumn; nameVisibility: AnyPgColumn };

function party(viewer: SQL | null, address: AnyPgColumn, u: Person, sharesGuild: SQL | null): SQL {
  const a = sql`lower(${address})`;
  // mergePermissions' value of profileVisibility.displayName (a JSON null too, which no rule shows), kept on the user's row.
  const vis = u.nameVisibility;
  // No account: no settings, everything shows; else self, public, or guilds_only to a guild-mate.
  const shows = viewer && sharesGuild
    ? sql`(${u.id} IS NULL OR ${a} = ${viewer} OR ${vis} = '"public"' OR (${vis} = '"guilds_only"' AND ${sharesGuild}))`
    : sql`(${u.id} IS NULL OR ${vis} = '"public"')`;
  return sql`json_build_object('id', coalesce(${u.id}::text, ${a}), 'evmAddress', ${a}, 'resolvedName',
    CASE WHEN ${shows} AND ${u.displayName} <> '' THEN ${u.displayName} ELSE left(${a}, 6) || '…' || right(${a}, 4) END)`;
}

type Chain = Pick<ChainTables, "missions" | "guilds" | "guildMembers">;

/** A statement's text and how to fill its parameters (drizzle numbers each use of a placeholder). */
export interface RawStatement {
  name: string;
  text: string;
  values(id: string, viewer: string | null): unknown[];
}

/**
 * The statement of the view of mission `id` for the placeholder `viewer`, or for no viewer (the
 * public view: no party checks, no guild lookups; PostgreSQL re-reads a statement's whole expression
 * tree at each execution, so what a public read cannot need is not in its text). Run by the caller as
 * a named statement on pg itself, its one text column as an array row: nothing to map.
 */
export function missionViewStatement(db: Db, t: Chain, forViewer: boolean, name: string): RawStatement {
  const m = alias(t.missions, "m");
  const d = alias(missionDetails, "d");
  const g = alias(t.guilds, "g");
  const [pu, fu] = [alias(users, "pu"), alias(users, "fu")];
  // The placeholder sharesGuildSql() reads too (privacy.repository.ts).
  const me = forViewer ? sql`${sql.placeholder("viewer")}::text` : null;
  const shares = (u: Person, k: string) => (forViewer ? sharesGuildSql(db, t.guildMembers, u.evmAddress, u.nameVisibility, k) : null);
  const holding = sql.raw(HOLDING_STATES.map((s) => `'${s}'`).join(","));
  const exact = sql`json_build_object('latitude', ${d.latitude}, 'longitude', ${d.longitude}, 'radius', ${d.radius}, 'precision', 0)`;
  const cell = sql`json_build_object('latitude', ${cellCentre(d.latitude, 90)}, 'longitude', ${cellCentre(d.longitude, 180)}, 'radius', ${d.radius}, 'precision', 2)`;
  // Exact to the parties, the neighbourhood cell's centre to everyone else (location-privacy.ts).
  const location = sql`CASE WHEN ${d.latitude} IS NULL OR ${d.longitude} IS NULL OR ${d.radius} IS NULL THEN NULL
    ${me ? sql`WHEN ${me} = lower(${m.poster}) OR ${me} = lower(${m.performer}) THEN ${exact} ` : sql``}ELSE ${cell} END`;
  const view = sql<string>`json_build_object('data', json_build_object(
    'id', ${m.id}, 'onChainId', ${m.onChainId}::text, 'title', coalesce(${d.title}, ''), 'description', coalesce(${d.description}, ''),
    'state', ${m.state}, 'category', coalesce(${d.category}, ''), 'rewardAmount', ${amount(m.reward)},
    'poster', ${party(me, m.poster, pu, shares(pu, "_p"))},
    'performer', CASE WHEN ${m.performer} IS NULL THEN NULL ELSE ${party(me, m.performer, fu, shares(fu, "_f"))} END,
    'guild', CASE WHEN ${m.guildUuid} IS NULL THEN NULL ELSE json_build_object('id', ${m.guildUuid}, 'name', coalesce(${g.name}, '')) END,
    'location', ${location}, 'expiresAt', ${iso(m.expiresAt)}, 'createdAt', ${iso(m.createdAt)},
    'minReputation', ${d.minReputation}, 'premium', coalesce(${d.premium}, false),
    'releasedAmount', ${amount(m.released)}, 'refundedAmount', ${amount(m.refunded)},
    'remainingAmount', ${amount(sql`CASE WHEN ${m.state} IN (${holding}) THEN greatest(${m.reward} - ${m.released} - ${m.refunded}, 0) ELSE 0 END`)},
    'escrowAddress', lower(${m.escrowAddress}), 'ddrAmount', ${amount(m.ddrAmount)}, 'proofHash', ${m.proofHash},
    'metadata', coalesce(${d.metadata}, '{}'), 'acceptedAt', ${iso(m.acceptedAt)}, 'completedAt', ${iso(m.completedAt)},
    'refundAmount', ${amount(m.refundAmount)}))::text`;
  const query = db.select({ body: view }).from(m)
    // The details written for this very mission (hash, on-chain id and escrow), as missions.repository.ts joins them.
    .leftJoin(d, and(eq(d.detailsHash, m.detailsHash), eq(d.onChainId, sql`${m.onChainId}::text`), eq(d.escrowAddress, m.escrowAddress)))
    .leftJoin(g, eq(g.id, m.guildUuid))
    .leftJoin(pu, eq(pu.evmAddress, m.poster)).leftJoin(fu, eq(fu.evmAddress, m.performer))
    .where(eq(m.id, sql.placeholder("id")))
    .toSQL();
  const params = query.params.map((p) => (p instanceof Placeholder ? (p.name as "id" | "viewer") : { value: p }));
  return {
    name,
    text: query.sql,
    values: (id, viewer) => params.map((p) => (p === "id" ? id : p === "viewer" ? viewer : p.value)),
  };
}
