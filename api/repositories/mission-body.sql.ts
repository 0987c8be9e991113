// GET /missions/:id's response body written by PostgreSQL (bench B1): the text JSON.stringify gives for
// `{ data: singleView(row, viewer, lens) }` (api/services/mission-view.ts, the privacy lens of privacy.ts,
// the location rule of discovery/location-privacy.ts, domain/money.ts amounts), byte for byte, so node
// neither parses a row nor builds and stringifies a view on the hot read. The JS view stays the rule:
// every expression below yields NULL where it could differ from it (a negative or missing amount, a time
// outside 1970..9999, a number JSON.stringify would print in exponent form, a coordinate outside its
// range), and a NULL anywhere makes the whole text NULL: the service then answers with the JS view
// (missions.service.ts getBody). The metadata (jsonb) is handed over as its own text and passed through
// JSON.parse/JSON.stringify by node, as the JS view does (jsonb orders keys and spaces its output
// differently). test/e2e/mission-body.test.ts compares the two on rows built to hit each case.
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

/** A JSON string of a text (NULL stays NULL: a value the JS view would not print as a string). */
const str = (x: X) => sql`to_json((${x})::text)::text`;
/** A JSON string, or JSON null for NULL. */
const strOrNull = (x: X) => sql`coalesce(to_json((${x})::text)::text, 'null')`;

/** formatAmount(): 6-decimal base units as "whole.ffffff"; NULL for a negative or missing amount (it throws). */
const amount = (x: X) =>
  sql`(CASE WHEN (${x}) >= 0 THEN '"' || div((${x}), 1000000)::text || '.' || lpad(mod((${x}), 1000000)::text, 6, '0') || '"' END)`;
const amountOrNull = (x: X) => sql`(CASE WHEN (${x}) IS NULL THEN 'null' ELSE ${amount(x)} END)`;

/** iso() of unix seconds: toISOString(), for years 1970..9999 (NULL outside: the JS form differs or throws). */
const iso = (x: X) => sql`(CASE WHEN (${x}) IS NULL THEN 'null'
  WHEN (${x}) >= 0 AND (${x}) < 253402300800 THEN '"' || to_char(to_timestamp((${x})::float8) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"' END)`;

/**
 * A float8 as JSON.stringify prints it: both print the shortest digits that read back the same number,
 * and agree on the form between 1e-4 and 1e15 (PostgreSQL switches to an exponent outside it, JS below
 * 1e-6 and from 1e21); 0 and -0 print "0". NULL elsewhere (and for NaN, infinities).
 */
const num = (x: X) => sql`(CASE WHEN (${x}) = 0 THEN '0' WHEN abs(${x}) >= 1e-4 AND abs(${x}) < 1e15 THEN (${x})::float8::text END)`;

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
  return sql`'{"id":' || ${str(sql`coalesce((${p.id})::text, ${lower})`)} || ',"evmAddress":' || ${str(lower)} || ',"resolvedName":' ||
    ${str(sql`CASE WHEN ${shown} AND ${p.name} <> '' THEN ${p.name} ELSE left(${lower}, 6) || '…' || right(${lower}, 4) END`)} || '}'`;
}

export interface BodyColumns {
  id: X; onChainId: X; title: X; description: X; state: X; category: X; reward: X; poster: BodyParty; performer: BodyParty & { address: X };
  guildUuid: X; guildName: X; latitude: X; longitude: X; radius: X; expiresAt: X; createdAt: X; minReputation: X; premium: X;
  released: X; refunded: X; escrowAddress: X; ddrAmount: X; proofHash: X; metadata: X; acceptedAt: X; completedAt: X; refundAmount: X;
}

/**
 * The body in three texts: `head` up to `"metadata":`, the metadata as jsonb text (`meta`), and `tail`.
 * `viewer` is the lowercase address of the signed-in viewer or NULL. head/tail NULL: use the JS view.
 */
export function missionBodyFields(c: BodyColumns, viewer: SQL) {
  const performer = sql`(CASE WHEN ${c.performer.address} IS NULL OR ${c.performer.address} = '' THEN 'null' ELSE ${party(c.performer, viewer)} END)`;
  const guild = sql`(CASE WHEN ${c.guildUuid} IS NULL OR ${c.guildUuid} = '' THEN 'null'
    ELSE '{"id":' || ${str(c.guildUuid)} || ',"name":' || ${str(sql`coalesce(${c.guildName}, '')`)} || '}' END)`;
  const isParty = sql`coalesce(${viewer} = lower(${c.poster.address}) OR ${viewer} = lower(${c.performer.address}), false)`;
  const where = (lat: SQL, lng: SQL, precision: number) =>
    sql`'{"latitude":' || ${num(lat)} || ',"longitude":' || ${num(lng)} || ',"radius":' || ${num(c.radius)} || ${sql.raw(`',"precision":${precision}}'`)}`;
  const location = sql`(CASE WHEN ${c.latitude} IS NULL OR ${c.longitude} IS NULL OR ${c.radius} IS NULL THEN 'null'
    WHEN ${isParty} THEN ${where(sql`${c.latitude}`, sql`${c.longitude}`, 0)}
    ELSE ${where(cellCentre(c.latitude, 90), cellCentre(c.longitude, 180), 2)} END)`;
  const holding = sql.raw(HOLDING_STATES.map(quoted).join(", "));
  const remaining = sql`(CASE WHEN ${c.state} IN (${holding}) THEN greatest(${c.reward} - ${c.released} - ${c.refunded}, 0) ELSE 0 END)`;
  const head = sql<string | null>`'{"data":{"id":' || ${str(c.id)} || ',"onChainId":"' || (${c.onChainId})::text || '","title":' || ${str(sql`coalesce(${c.title}, '')`)}
    || ',"description":' || ${str(sql`coalesce(${c.description}, '')`)} || ',"state":' || ${str(c.state)}
    || ',"category":' || ${str(sql`coalesce(${c.category}, '')`)} || ',"rewardAmount":' || ${amount(c.reward)}
    || ',"poster":' || ${party(c.poster, viewer)} || ',"performer":' || ${performer} || ',"guild":' || ${guild}
    || ',"location":' || ${location} || ',"expiresAt":' || ${iso(c.expiresAt)} || ',"createdAt":' || ${iso(c.createdAt)}
    || ',"minReputation":' || coalesce((${c.minReputation})::text, 'null') || ',"premium":' || (CASE WHEN coalesce(${c.premium}, false) THEN 'true' ELSE 'false' END)
    || ',"releasedAmount":' || ${amount(c.released)} || ',"refundedAmount":' || ${amount(c.refunded)} || ',"remainingAmount":' || ${amount(remaining)}
    || ',"escrowAddress":' || ${str(sql`lower(${c.escrowAddress})`)} || ',"ddrAmount":' || ${amount(c.ddrAmount)}
    || ',"proofHash":' || ${strOrNull(c.proofHash)} || ',"metadata":'`;
  const tail = sql<string | null>`',"acceptedAt":' || ${iso(c.acceptedAt)} || ',"completedAt":' || ${iso(c.completedAt)}
    || ',"refundAmount":' || ${amountOrNull(c.refundAmount)} || '}}'`;
  return { head, meta: sql<string | null>`(${c.metadata})::text`, tail };
}

/** The body from the three texts (null: the JS view must answer); the metadata as the JS view prints it. */
export function joinBody(head: string | null, meta: string | null, tail: string | null): string | null {
  if (head === null || tail === null) return null;
  return head + (meta === null || meta === "{}" ? "{}" : JSON.stringify(JSON.parse(meta) ?? {})) + tail;
}
