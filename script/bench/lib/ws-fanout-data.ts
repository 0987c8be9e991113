// B8 data: 50 geohash-5 cells (~4.9 km squares) spread over the world, one poster per cell, and the
// missions whose creation is fanned out (event k lies in cell k mod cells, at a random point of it).
// seedB8 writes them where the API reads them: the indexer's chain tables (DDL derived from the
// Ponder schema by chain-ddl.ts) in CHAIN_SCHEMA, and the off-chain details in api.mission_details.
import crypto from "node:crypto";
import pg from "pg";
import { geohashDecode, geohashEncode } from "../../../api/services/discovery/geo.ts";
import { chainTables } from "./chain-ddl.ts";

export const B8_CHAIN_SCHEMA = "chain";

export interface B8Cell {
  geohash: string;
  /** The poster of every mission in the cell; one client per cell signs in as this address (party class). */
  poster: string;
}

export interface B8Event {
  missionId: string;
  cell: number;
  latitude: number;
  longitude: number;
  detailsHash: string;
}

/** Deterministic PRNG (mulberry32) so every run fans out the same missions. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const hex = (rand: () => number, bytes: number) =>
  "0x" + Array.from({ length: bytes }, () => Math.floor(rand() * 256).toString(16).padStart(2, "0")).join("");

export function makeCells(count: number, seed = 8): B8Cell[] {
  const rand = prng(seed);
  const seen = new Set<string>();
  const cells: B8Cell[] = [];
  while (cells.length < count) {
    const g = geohashEncode(-50 + rand() * 110, -120 + rand() * 270, 5);
    if (seen.has(g)) continue;
    seen.add(g);
    cells.push({ geohash: g, poster: hex(rand, 20) });
  }
  return cells;
}

/** `count` missions, `offset` distinguishes batches (ids and points stay unique across batches). */
export function makeEvents(cells: B8Cell[], count: number, offset = 0, seed = 88): B8Event[] {
  const rand = prng(seed + offset);
  return Array.from({ length: count }, (_, i) => {
    const k = offset + i;
    const cell = k % cells.length;
    const b = geohashDecode(cells[cell]!.geohash);
    // Stay off the edges: a point on a cell border must still encode into this cell.
    const latitude = b.south + (0.05 + 0.9 * rand()) * (b.north - b.south);
    const longitude = b.west + (0.05 + 0.9 * rand()) * (b.east - b.west);
    return { missionId: crypto.randomUUID(), cell, latitude, longitude, detailsHash: hex(rand, 32) };
  });
}

const DESCRIPTION =
  "Pick up a parcel at the corner shop and bring it to the third floor; the bell is broken, so call when you are downstairs. " +
  "Small and light, fits in a backpack. Please be there before six.";

/** Creates the chain tables (missions, guilds, journal, and what the read model projection reads) once in `databaseUrl`. */
export async function createChainTables(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${B8_CHAIN_SCHEMA}"`);
    for (const t of chainTables(B8_CHAIN_SCHEMA).filter((t) => ["missions", "guilds", "guild_members", "journal", "user_stats", "board_entries"].includes(t.name))) {
      await client.query(t.create);
      for (const c of t.constraints) await client.query(c);
      for (const ix of t.indexes) await client.query(ix);
    }
  } finally {
    await client.end();
  }
}

const missionColumns = () => chainTables(B8_CHAIN_SCHEMA).find((t) => t.name === "missions")!.columns;

/** A NOT NULL column nobody reads in B8 still needs a value of its type. */
function filler(type: string): unknown {
  if (/int|numeric|bigint/.test(type)) return 0;
  if (/json/.test(type)) return {};
  if (/bool/.test(type)) return false;
  return "0x00";
}

/**
 * Inserts the missions (chain row + details row) in one transaction; with `journalIdStart`, also a
 * MISSION_CREATED journal row per mission (ids from there), which the API's journal tailer picks up.
 */
export async function insertMissions(
  client: pg.ClientBase,
  cells: B8Cell[],
  events: B8Event[],
  journalIdStart?: bigint,
): Promise<void> {
  const cols = missionColumns();
  const now = Math.floor(Date.now() / 1000);
  const known: Record<string, (e: B8Event, i: number) => unknown> = {
    id: (e) => e.missionId,
    chain_id: () => 31337,
    on_chain_id: (_e, i) => 1_000_000 + i,
    escrow_address: () => "0x5fbdb2315678afecb367f032d93f642f64180aa3",
    poster: (e) => cells[e.cell]!.poster,
    guild_on_chain_id: () => 0,
    reward: () => "25000000",
    ddr_amount: () => "1250000",
    guild_fee_bps: () => 0,
    state: () => "Open",
    details_hash: (e) => e.detailsHash,
    expires_at: () => now + 86_400,
    created_at: () => now,
    created_tx_hash: (e) => "0x" + e.detailsHash.slice(2),
    created_block: () => 1,
    updated_block: () => 1,
    updated_at: () => now,
  };
  const used = cols.filter((c) => c.name in known || c.notNull);
  await client.query("BEGIN");
  try {
    for (const [i, e] of events.entries()) {
      await client.query(
        `INSERT INTO api.mission_details (details_hash, title, description, category, latitude, longitude, radius, metadata, salt, on_chain_id, escrow_address)
         VALUES ($1, $2, $3, 'delivery', $4, $5, 150, '{"tags":"parcel"}', $6, $7, '0x5fbdb2315678afecb367f032d93f642f64180aa3') ON CONFLICT DO NOTHING`,
        [e.detailsHash, `Deliver a parcel across ${cells[e.cell]!.geohash}`, DESCRIPTION, e.latitude, e.longitude, e.detailsHash.slice(2, 34), String(1_000_000 + i)],
      );
      await client.query(
        `INSERT INTO "${B8_CHAIN_SCHEMA}".missions (${used.map((c) => `"${c.name}"`).join(", ")})
         VALUES (${used.map((_, k) => `$${k + 1}`).join(", ")})`,
        used.map((c) => (known[c.name] ? known[c.name]!(e, i) : filler(c.type))),
      );
      if (journalIdStart !== undefined) {
        await client.query(
          `INSERT INTO "${B8_CHAIN_SCHEMA}".journal (id, chain_id, block_number, block_timestamp, tx_hash, log_index, seq, type, mission_id, account, payload)
           VALUES ($1, 31337, 1, $2, $3, 0, 0, 'MISSION_CREATED', $4, $5, '{}')`,
          [String(journalIdStart + BigInt(i)), now, "0x" + e.detailsHash.slice(2), e.missionId, cells[e.cell]!.poster],
        );
      }
    }
    await client.query("COMMIT");
  } catch (err) {
    await client.query("ROLLBACK").catch(() => {});
    throw err;
  }
}

/**
 * The hub side's clients as users, in connection order (client j of every cell; j = 0 is the cell's
 * poster): the API checks each token's session at the upgrade, so each needs a users row.
 */
export function clientUsers(cells: B8Cell[], perCell: number): { userId: string; address: string }[] {
  const out: { userId: string; address: string }[] = [];
  for (let j = 0; j < perCell; j++) {
    for (const [cell, c] of cells.entries()) {
      const address = j === 0 ? c.poster : "0x" + crypto.createHash("sha256").update(`b8-client-${cell}-${j}`).digest("hex").slice(0, 40);
      const h = crypto.createHash("sha256").update(`b8-user-${address}`).digest("hex");
      out.push({ userId: `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`, address });
    }
  }
  return out;
}

export async function insertClientUsers(db: pg.Client, users: { userId: string; address: string }[]): Promise<void> {
  await db.query(
    `INSERT INTO api.users (id, evm_address) SELECT * FROM unnest($1::uuid[], $2::text[]) ON CONFLICT DO NOTHING`,
    [users.map((u) => u.userId), users.map((u) => u.address.toLowerCase())],
  );
}
