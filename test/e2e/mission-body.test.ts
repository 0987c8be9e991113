// GET /missions/:id's body as PostgreSQL writes it (api/repositories/mission-body.sql.ts) against the JS view
// it stands for (JSON.stringify({ data: viewerView(row, viewer) }), missions.service.ts): byte for byte, for
// rows built to hit each rule and each value whose printing differs between the two (amounts up to 2^255,
// times at 1970 and 9999, JSON escapes, floats at cell bounds and poles, metadata key order and numbers,
// the privacy lens's public / guilds_only / private / malformed settings, the viewer as party, guildmate,
// stranger and anonymous). Where SQL must not answer (a negative amount, a time past 9999, a float only
// JS prints, a coordinate out of range) it answers null and the service falls back to the JS view; a
// plain row must never fall back. Own tables in a scratch schema; the api rows it adds are removed after.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chainTables } from "../../api/db/chain.ts";
import { createDatabase, type Database } from "../../api/db/client.ts";
import { runMigrations } from "../../api/db/migrate.ts";
import { missionsRepository, type MissionsRepository } from "../../api/repositories/missions.repository.ts";
import { viewerView } from "../../api/services/missions.service.ts";
import { chainTables as chainDdl } from "../../script/bench/lib/chain-ddl.ts";
import { inject } from "./lane.ts";

const schema = `b1_body_${crypto.randomBytes(4).toString("hex")}`;
const addr = () => `0x${crypto.randomBytes(20).toString("hex")}`;
let database: Database;
let repo: MissionsRepository;
const userIds: string[] = [];
const detailHashes: string[] = [];

async function insert(table: string, values: Record<string, unknown>, into = schema) {
  const ddl = chainDdl(schema).find((t) => t.name === table);
  // Chain tables: every NOT NULL column the case leaves out gets a neutral value.
  const cols = ddl ? ddl.columns.filter((c) => c.name in values || c.notNull).map((c) => c.name) : Object.keys(values);
  const fill = (name: string) => {
    const type = ddl!.columns.find((c) => c.name === name)!.type;
    return /numeric|int/.test(type) ? 0 : /bool/.test(type) ? false : "x";
  };
  const v = cols.map((c) => (c in values ? values[c] : fill(c)));
  await database.pool.query(`INSERT INTO "${into}"."${table}" (${cols.map((c) => `"${c}"`).join(", ")}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(", ")})`, v);
}

async function user(name: string, permissions?: unknown) {
  const address = addr();
  const { rows } = await database.pool.query<{ id: string }>("INSERT INTO api.users (evm_address, display_name) VALUES ($1, $2) RETURNING id", [address, name]);
  userIds.push(rows[0]!.id);
  if (permissions !== undefined) await database.pool.query("INSERT INTO api.vaults (user_id, permissions) VALUES ($1, $2::jsonb)", [rows[0]!.id, JSON.stringify(permissions)]);
  return address;
}

// Values of each kind; `edge`: SQL answers null (the JS view prints it, or throws).
type V<T> = { v: T; edge?: boolean };
const AMOUNTS: V<bigint>[] = [{ v: 0n }, { v: 1n }, { v: 999_999n }, { v: 1_000_000n }, { v: 123_456_789n }, { v: 2n ** 255n + 7n }];
const TIMES: V<number>[] = [{ v: 0 }, { v: 1_700_000_000 }, { v: 253_402_300_799 }];
/** Every 15th row from i = 3, 8, 13 holds one of these in the slot (amount slot 0..4, time slot 0..2) named. */
const EDGES = [{ amount: 1, v: { v: -1n, edge: true } }, { time: 0, v: { v: 253_402_300_800, edge: true } }, { time: 1, v: { v: -1, edge: true } }, { amount: 4, v: { v: -5n, edge: true } }];
const STATES = ["Open", "Accepted", "Submitted", "Completed", "Cancelled", "Disputed", "Expired"];
const TITLES = ["plain", 'quote " backslash \\ slash /', "ctrl \u0001\u001f\n\t\r\b\f\u007f", "emoji 😀 \u2028 \u2029 é", "", "<script>…</script>"];
const METADATA: unknown[] = [{}, { tags: ["a", "t1"] }, { b: 1, 10: 2, a: [1.5, 1e21, 1e-7, -0, "x", 12345678901234567890], n: null, o: { z: true, "": "" } }, [], null, "s", { "\u00e9": "\n" }];
const LAT_STEP = 180 / 32768, LNG_STEP = 360 / 32768;
// [lat, lng, radius]; `party`/`other`: the value is an edge for a party (exact) or anyone else (cell).
const PLACES: { v: [number, number, number] | null; party?: boolean; other?: boolean }[] = [
  { v: null }, { v: [37.800554014263014, -122.41, 50] }, { v: [0, 0, 100] }, { v: [-0, -0, 1] }, { v: [-90, -180, 0.5] }, { v: [90, 180, 1e14] },
  { v: [-90 + 12_345 * LAT_STEP, -180 + 20_000 * LNG_STEP, 500] }, { v: [-90 + 12_345 * LAT_STEP - 1e-12, 1e-13, 25], party: true }, { v: [45.00000000000001, -45, 25] },
  { v: [-0.0027465, 0.0054931640625, 3] }, { v: [1e-5, 2, 50], party: true }, { v: [10, 10, 1e-5], party: true, other: true },
  { v: [95, 0, 10], other: true }, { v: [-33.123456789, 151.987654321, 1234.5] },
];

interface Case { id: string; poster: string; performer: string | null; edge: boolean; place: (typeof PLACES)[number] }
const cases: Case[] = [];
const viewers: (string | null)[] = [];

beforeAll(async () => {
  database = createDatabase(inject("databaseUrl"), 4);
  await runMigrations(database);
  await database.pool.query(`CREATE SCHEMA "${schema}"`);
  for (const t of chainDdl(schema).filter((x) => ["missions", "guilds", "guild_members"].includes(x.name))) await database.pool.query(t.create);
  repo = missionsRepository(database.db, chainTables(schema), schema, database.pool);

  const guildmate = addr(), stranger = addr();
  const parties = [
    await user('Alice "Q"'), await user("Bob", { profileVisibility: { displayName: "private" } }),
    await user("Carol", { profileVisibility: { displayName: "guilds_only" } }), addr(), await user(""),
    await user("Dan", { profileVisibility: ["displayName"] }), await user("Eve", { profileVisibility: { displayName: null } }),
    await user("Fay", { profileVisibility: { bio: "private" } }), await user("Gus", "not an object"),
    await user("Hal", { profileVisibility: { displayName: "public" }, notifications: {} }),
  ];
  const guildUuid = crypto.randomUUID();
  await insert("guilds", { id: guildUuid, on_chain_id: 7, name: "Guild \\ \"one\"" });
  for (const a of [guildmate, parties[2]!]) await insert("guild_members", { id: `7:${a}`, guild_on_chain_id: 7, guild_uuid: guildUuid, account: a, active: true });
  const escrow = "0xAbCdEf0000000000000000000000000000000001";
  const pick = <T>(xs: T[], i: number, k: number) => xs[(i * k + Math.floor(i / xs.length)) % xs.length]!;
  for (let i = 0; i < 90; i++) {
    const amounts: V<bigint>[] = [pick(AMOUNTS, i, 1), pick(AMOUNTS, i, 3), pick(AMOUNTS, i, 5), pick(AMOUNTS, i, 2)];
    let refund: V<bigint> | null = i % 3 === 0 ? null : pick(AMOUNTS, i, 4);
    const times: V<number>[] = [pick(TIMES, i, 1), pick(TIMES, i, 2)];
    const accepted = i % 4 === 0 ? null : pick(TIMES, i, 3);
    const e = i % 5 === 3 ? EDGES[Math.floor(i / 5) % EDGES.length]! : null;
    if (e?.amount === 4) refund = e.v as V<bigint>;
    else if (e?.amount !== undefined) amounts[e.amount] = e.v as V<bigint>;
    if (e?.time !== undefined) times[e.time] = e.v as V<number>;
    const poster = i === 7 ? addr().toUpperCase().replace("0X", "0x") : pick(parties, i, 1);
    const performer = i % 5 === 0 ? null : i === 11 ? "" : pick(parties, i, 3);
    const place = pick(PLACES, i, 1);
    const details = i % 9 !== 4;
    const onChainId = BigInt(i) * 10n ** 40n + 1n;
    const hash = `0x${crypto.randomBytes(32).toString("hex")}`;
    const id = `b1-body-${schema}-${i}`;
    await insert("missions", {
      id, on_chain_id: onChainId.toString(), escrow_address: escrow, poster, performer, reward: amounts[0]!.v.toString(), released: amounts[1]!.v.toString(),
      refunded: amounts[2]!.v.toString(), ddr_amount: amounts[3]!.v.toString(), refund_amount: refund?.v.toString() ?? null, state: pick(STATES, i, 1),
      guild_uuid: [null, "", guildUuid, crypto.randomUUID()][i % 4], details_hash: hash, proof_hash: i % 2 ? null : "0xABCdef",
      expires_at: times[0]!.v, created_at: times[1]!.v, accepted_at: accepted?.v ?? null, completed_at: i % 6 === 1 ? 1_800_000_000 : null,
    });
    if (details) {
      detailHashes.push(hash);
      await database.pool.query(
        `INSERT INTO api.mission_details (details_hash, on_chain_id, escrow_address, title, description, category, latitude, longitude, radius, metadata, min_reputation, premium, salt)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $12, 's')`,
        [hash, onChainId.toString(), escrow, pick(TITLES, i, 1), pick(TITLES, i, 5), pick(TITLES, i, 2), place.v?.[0] ?? null, place.v?.[1] ?? null, place.v?.[2] ?? null,
          JSON.stringify(pick(METADATA, i, 1)), [null, 0, -5, 100][i % 4], i % 2 === 0],
      );
    }
    const edge = [...amounts, ...times, ...(refund ? [refund] : []), ...(accepted ? [accepted] : [])].some((x) => x.edge);
    cases.push({ id, poster, performer, edge, place: details ? place : { v: null } });
  }
  viewers.push(null, guildmate, stranger);
}, 120_000);

afterAll(async () => {
  if (!database) return;
  await database.pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await database.pool.query("DELETE FROM api.mission_details WHERE details_hash = ANY($1)", [detailHashes]);
  await database.pool.query("DELETE FROM api.users WHERE id = ANY($1::uuid[])", [userIds]);
  await database.close();
});

describe("GET /missions/:id's body written by PostgreSQL", () => {
  it("is JSON.stringify of the JS view, byte for byte, for every row and viewer; only edge values fall back", async () => {
    let compared = 0, fellBack = 0;
    for (const c of cases) {
      for (const viewer of [...viewers, c.poster.toLowerCase(), ...(c.performer ? [c.performer] : [])]) {
        const body = await repo.bodyFor(c.id, viewer);
        const party = viewer !== null && (viewer === c.poster.toLowerCase() || viewer === c.performer);
        const edge = c.edge || (party ? c.place.party : c.place.other) === true;
        const row = await repo.findForViewer(c.id, viewer);
        let js: string | Error;
        try {
          js = JSON.stringify({ data: viewerView(row!, (viewer ?? undefined) as never) });
        } catch (err) {
          js = err as Error;
        }
        if (body === null) {
          fellBack++;
          expect(edge, `${c.id} for ${viewer}: fell back on a plain row`).toBe(true);
          continue;
        }
        expect(body, `${c.id} for ${viewer}`).toBe(js);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(200);
    expect(fellBack).toBeGreaterThan(20);
  });

  it("answers undefined for a mission that does not exist", async () => {
    expect(await repo.bodyFor("no-such-mission", null)).toBeUndefined();
  });
});
