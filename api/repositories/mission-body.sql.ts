// GET /missions/:id's response body written by PostgreSQL (bench B1): the text JSON.stringify gives for
// `{ data: singleView(row, viewer, lens) }` (api/services/mission-view.ts, the privacy lens of privacy.ts,
// the location rule of discovery/location-privacy.ts, domain/money.ts amounts), byte for byte, so node
// neither parses a row nor builds and stringifies a view on the hot read. The JS view stays the rule:
// where a value could print differently (a negative or missing amount, a time outside 1970..9999, a
// float JSON.stringify would print in another form, a coordinate out of range) the body is NULL and the
// service answers with the JS view (missions.service.ts getBody). The metadata (jsonb) is handed over as
// its own text and passed through JSON.parse/JSON.stringify by node, as the JS view does (jsonb orders
// keys and spaces its output differently). test/e2e/mission-body.test.ts compares the two on rows built
// to hit each case.
import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { HOLDING_STATES } from "../../domain/index.ts";
import { DEFAULT_VAULT_PERMISSIONS } from "./users.repository.ts";
import { VISIBILITIES } from "../services/vault-permissions.ts";

type X = SQL | AnyPgColumn;

/** A SQL string literal of a known constant (only [A-Za-z_] words). */
const quoted = (s: string) => {
  if (!/^[A-Za-z_]+$/.test(s)) throw new Error(`not a plain word: ${s}`);
  return `'${s}'`;
};
const literal = (s: string) => sql.raw(quoted(s));

/** formatAmount(): 6-decimal base units as "whole.ffffff" (text; the guard refuses a negative or missing one). */
const amount = (x: X) => sql`div((${x}), 1000000)::text || '.' || lpad(mod((${x}), 1000000)::text, 6, '0')`;
/** iso() of unix seconds: toISOString() for years 1970..9999 (text; the guard refuses other times). */
const iso = (x: X) => sql`to_char(to_timestamp((${x})::float8) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const timeOk = (x: X) => sql`coalesce((${x}) BETWEEN 0 AND 253402300799, (${x}) IS NULL)`;

/**
 * Whether JSON.stringify prints this float8 as PostgreSQL does: both print the shortest digits that
 * read back the same number, in the same form between 1e-4 and 1e15 (PostgreSQL uses an exponent
 * outside it, JS below 1e-6 and from 1e21); 0 (the value is printed + 0, so -0 prints "0").
 */
const floatOk = (x: X) => sql`((${x}) = 0 OR (abs(${x}) >= 1e-4 AND abs(${x}) < 1e15))`;

/**
 * The centre of the geohash-6 cell holding `deg` (15 bits on the axis spanning ±span), rounded to 6
 * decimals as round6() does: the bisection's cell is the i with lo(i) <= deg < lo(i + 1), lo(i) = -span +
 * i·step, every lo exact in float8; i is estimated by a division and corrected by comparing with the
 * exact bounds (the division's rounding can cross a bound). Math.round(y) = floor(y + 0.5) for these
 * magnitudes. NULL outside ±span (NaN included): the JS view is asked.
 */
function cellCentre(deg: X, span: 90 | 180): SQL {
  const step = sql.raw(`${(2 * span) / 32768}::float8`);
  const lo = sql.raw(`${-span}::float8`);
  const i0 = sql`floor(((${deg}) - ${lo}) / ${step})`;
  const i = sql`least(32767, greatest(0, ${i0} - ((${deg}) < ${lo} + ${i0} * ${step})::int + ((${deg}) >= ${lo} + (${i0} + 1) * ${step})::int))`;
  return sql`(CASE WHEN (${deg}) BETWEEN ${lo} AND ${sql.raw(`${span}::float8`)}
    THEN floor((${lo} + (${i} + 0.5::float8) * ${step}) * 1e6::float8 + 0.5::float8) / 1e6::float8 END)`;
}

export interface BodyParty {
  address: X;
  /** api.users id (null: no account, so no privacy settings). */
  id: X;
  name: X;
  /** api.vaults permissions (jsonb; null: the defaults). */
  permissions: X;
  sharesGuild: X;
}

/**
 * party(): id, lowercase address and the name the lens lets the viewer see (else the short address).
 * A party with settings (an account) other than the viewer shows the name when its displayName field
 * (mergePermissions: the stored field when profileVisibility is an object holding it, else the default)
 * is public, or guilds_only and the viewer shares a guild with it.
 */
function party(p: BodyParty, viewer: SQL): SQL {
  const lower = sql`lower(${p.address})`;
  const pv = sql`(${p.permissions} -> 'profileVisibility')`;
  const vis = sql`(CASE WHEN jsonb_typeof(${pv}) = 'object' AND ${pv} ? 'displayName' THEN ${pv} ->> 'displayName'
    ELSE ${literal(DEFAULT_VAULT_PERMISSIONS.profileVisibility.displayName)} END)`;
  const [pub, guilds] = [literal(VISIBILITIES[0]), literal(VISIBILITIES[1])];
  const shown = sql`(${p.id} IS NULL OR ${lower} = ${viewer} OR ${vis} = ${pub} OR (${vis} = ${guilds} AND ${p.sharesGuild}))`;
  return sql`(SELECT row_to_json(p) FROM (SELECT coalesce((${p.id})::text, ${lower}) AS "id", ${lower} AS "evmAddress",
    CASE WHEN ${shown} AND ${p.name} <> '' THEN ${p.name} ELSE left(${lower}, 6) || '…' || right(${lower}, 4) END AS "resolvedName") p)`;
}

export interface BodyColumns {
  id: X; onChainId: X; title: X; description: X; state: X; category: X; reward: X; poster: BodyParty; performer: BodyParty & { address: X };
  guildUuid: X; guildName: X; latitude: X; longitude: X; radius: X; expiresAt: X; createdAt: X; minReputation: X; premium: X;
  released: X; refunded: X; escrowAddress: X; ddrAmount: X; proofHash: X; metadata: X; acceptedAt: X; completedAt: X; refundAmount: X;
}

/**
 * The body as one text, row_to_json of the view's fields in the view's order (compact, every string
 * escaped as JSON.stringify does), with `"metadata":null` in the metadata's place, and the metadata as
 * jsonb text (`meta`): joinBody() puts it in. `viewer`: the lowercase address of the signed-in viewer or
 * NULL. `body` NULL: a value only the JS view prints (or on which it throws); the service asks it.
 * One row_to_json over named columns, not text built with || and to_json: that form cost PostgreSQL
 * ~650 µs of expression set-up and evaluation a read (the baseline's whole statement ~300).
 */
export function missionBodyFields(c: BodyColumns, viewer: SQL) {
  const isParty = sql`coalesce(${viewer} = lower(${c.poster.address}) OR ${viewer} = lower(${c.performer.address}), false)`;
  const hasPlace = sql`(${c.latitude} IS NOT NULL AND ${c.longitude} IS NOT NULL AND ${c.radius} IS NOT NULL)`;
  const place = (lat: SQL, lng: SQL, precision: number) =>
    sql`(SELECT row_to_json(l) FROM (SELECT ${lat} AS "latitude", ${lng} AS "longitude", (${c.radius}) + 0::float8 AS "radius", ${sql.raw(String(precision))} AS "precision") l)`;
  const placeOk = sql`(NOT ${hasPlace} OR (${floatOk(c.radius)} AND CASE WHEN ${isParty} THEN ${floatOk(c.latitude)} AND ${floatOk(c.longitude)}
    ELSE (${c.latitude}) BETWEEN -90 AND 90 AND (${c.longitude}) BETWEEN -180 AND 180 END))`;
  const holding = sql.raw(HOLDING_STATES.map(quoted).join(", "));
  const remaining = sql`(CASE WHEN ${c.state} IN (${holding}) THEN greatest(${c.reward} - ${c.released} - ${c.refunded}, 0) ELSE 0 END)`;
  const ok = sql`(${c.reward} >= 0 AND ${c.released} >= 0 AND ${c.refunded} >= 0 AND ${c.ddrAmount} >= 0 AND coalesce(${c.refundAmount} >= 0, ${c.refundAmount} IS NULL)
    AND ${c.escrowAddress} IS NOT NULL AND ${timeOk(c.expiresAt)} AND ${timeOk(c.createdAt)} AND ${timeOk(c.acceptedAt)} AND ${timeOk(c.completedAt)} AND ${placeOk})`;
  const view = sql`(SELECT row_to_json(v) FROM (SELECT (${c.id}) AS "id", (${c.onChainId})::text AS "onChainId", coalesce(${c.title}, '') AS "title",
    coalesce(${c.description}, '') AS "description", (${c.state}) AS "state", coalesce(${c.category}, '') AS "category", ${amount(c.reward)} AS "rewardAmount",
    ${party(c.poster, viewer)} AS "poster",
    CASE WHEN ${c.performer.address} IS NULL OR ${c.performer.address} = '' THEN NULL ELSE ${party(c.performer, viewer)} END AS "performer",
    CASE WHEN ${c.guildUuid} IS NULL OR ${c.guildUuid} = '' THEN NULL
      ELSE (SELECT row_to_json(g) FROM (SELECT (${c.guildUuid}) AS "id", coalesce(${c.guildName}, '') AS "name") g) END AS "guild",
    CASE WHEN NOT ${hasPlace} THEN NULL WHEN ${isParty} THEN ${place(sql`(${c.latitude}) + 0::float8`, sql`(${c.longitude}) + 0::float8`, 0)}
      ELSE ${place(cellCentre(c.latitude, 90), cellCentre(c.longitude, 180), 2)} END AS "location",
    ${iso(c.expiresAt)} AS "expiresAt", ${iso(c.createdAt)} AS "createdAt", (${c.minReputation}) AS "minReputation", coalesce(${c.premium}, false) AS "premium",
    ${amount(c.released)} AS "releasedAmount", ${amount(c.refunded)} AS "refundedAmount", ${amount(remaining)} AS "remainingAmount",
    lower(${c.escrowAddress}) AS "escrowAddress", ${amount(c.ddrAmount)} AS "ddrAmount", (${c.proofHash}) AS "proofHash", NULL::json AS "metadata",
    ${iso(c.acceptedAt)} AS "acceptedAt", ${iso(c.completedAt)} AS "completedAt", ${amount(c.refundAmount)} AS "refundAmount") v)`;
  return { body: sql<string | null>`CASE WHEN ${ok} THEN '{"data":' || ${view}::text || '}' END`, meta: sql<string | null>`(${c.metadata})::text` };
}

/** The key before the metadata and the one after: only times and amounts follow it, so the last match is the key. */
const META = ',"metadata":null,"acceptedAt":';

/** The body with the metadata as the JS view prints it (null: the JS view must answer). */
export function joinBody(body: string | null, meta: string | null): string | null {
  if (body === null) return null;
  const at = body.lastIndexOf(META);
  const json = meta === null || meta === "{}" ? "{}" : JSON.stringify(JSON.parse(meta) ?? {});
  return `${body.slice(0, at)},"metadata":${json}${body.slice(at + META.length - 14)}`;
}
