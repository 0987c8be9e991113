// The reactors read the journal in id order across digit boundaries (an indexer restart under load once made a cursor skip entries).
// A bare `ORDER BY id` after `SELECT id::text` sorts by the text output column: "100000002000" <
// "74000018000", so a batch spanning block 99 -> 100 came back out of order, the cursor jumped to the
// highest id and every entry of blocks 74..99 was lost. This file builds a journal with the indexer's
// own keys around the boundaries 99 -> 100 and 999 -> 1000 in a throwaway schema of the real
// PostgreSQL, and runs the real reactor runner over it with small batches.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "../../api/db/client.ts";
import { runMigrations } from "../../api/db/migrate.ts";
import { createLogger } from "../../api/lib/logger.ts";
import { reactorRunner } from "../../api/reactors/runner.ts";
import type { JournalEntry, Reactor } from "../../api/reactors/types.ts";
import { journalRepository } from "../../api/repositories/journal.repository.ts";
import { locksRepository } from "../../api/repositories/locks.repository.ts";
import { journalKey } from "../../indexer/lib/journal.ts";
import { inject } from "./lane.ts";

const schema = `journal_order_${Date.now().toString(36)}`;
let database: Database;
let admin: pg.Pool;
const ids: bigint[] = [];

/** Ponder's checkpoint string: 10 digits of timestamp, 16 of chain id, 16 of block number, then the rest. */
const checkpoint = (block: number) => `${"1".padStart(10, "0")}${"31337".padStart(16, "0")}${String(block).padStart(16, "0")}${"0".repeat(33)}`;

beforeAll(async () => {
  database = createDatabase(inject("databaseUrl"), 4);
  await runMigrations(database);
  admin = database.pool;
  await admin.query(`CREATE SCHEMA "${schema}"`);
  await admin.query(`CREATE TABLE "${schema}".journal (
    id numeric(78) PRIMARY KEY, chain_id integer NOT NULL, block_number numeric(78) NOT NULL, block_timestamp numeric(78) NOT NULL,
    tx_hash text NOT NULL, log_index integer NOT NULL, seq integer NOT NULL, type text NOT NULL, mission_id text, account text, payload jsonb)`);
  await admin.query(`CREATE TABLE "${schema}"._ponder_meta (key text PRIMARY KEY, value jsonb)`);
  await admin.query(`CREATE TABLE "${schema}"._ponder_checkpoint (chain_name text PRIMARY KEY, latest_checkpoint varchar(75))`);
  // Two events per block (log 0 seq 0, log 3 seq 1) in blocks 90..110 and 990..1010; one type in
  // three is of no interest to the filtered reactor.
  let n = 0;
  for (const range of [[90, 110], [990, 1010]] as const) {
    for (let b = range[0]; b <= range[1]; b++) {
      for (const [log, seq] of [[0, 0], [3, 1]] as const) {
        const id = journalKey(BigInt(b), log, seq);
        const type = n++ % 3 === 2 ? "GUILD_CREATED" : "MISSION_ACCEPTED";
        await admin.query(
          `INSERT INTO "${schema}".journal VALUES ($1, 31337, $2, 1700000000, '0x', $3, $4, $5, NULL, NULL, '{}')`,
          [id.toString(), b, log, seq, type],
        );
        ids.push(id);
      }
    }
  }
  await admin.query(`INSERT INTO "${schema}"._ponder_meta VALUES ('app', '{"is_ready": 1}')`);
  await admin.query(`INSERT INTO "${schema}"._ponder_checkpoint VALUES ('anvil', $1)`, [checkpoint(1010)]);
});
afterAll(async () => {
  await admin?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
  await admin?.query(`DELETE FROM api.reactor_cursors WHERE reactor LIKE 'journal-order-%'`).catch(() => {});
  await database?.close();
});

describe("journal order", () => {
  it("readBatch returns entries in numeric id order across block 99 -> 100 and 999 -> 1000", async () => {
    const journal = journalRepository(database.pool, schema);
    const got: bigint[] = [];
    let cursor = 0n;
    for (;;) {
      const batch = await journal.readBatch(cursor, 7);
      expect(batch).not.toBeNull();
      if (!batch!.entries.length) break;
      const page = batch!.entries.map((e) => e.id);
      expect(page, "a page is sorted").toEqual([...page].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      got.push(...page);
      cursor = page.at(-1)!;
    }
    expect(got).toEqual(ids);
  });

  it("the reactor runner hands every entry over once, in order, with a type filter and small batches", async () => {
    const seen: { all: bigint[]; filtered: bigint[] } = { all: [], filtered: [] };
    const tag = Date.now().toString(36);
    const reactors: Reactor[] = [
      { name: `journal-order-all-${tag}`, handle: async (e: JournalEntry) => void seen.all.push(e.id) },
      { name: `journal-order-typed-${tag}`, types: ["MISSION_ACCEPTED"], handle: async (e: JournalEntry) => void seen.filtered.push(e.id) },
    ];
    // The runner reads 200 entries per batch: 168 rows span both boundaries in one batch, the case
    // that lost entries. Start it with a cursor just below block 95 so the first batch begins there.
    await database.pool.query(`INSERT INTO api.reactor_cursors (reactor, last_id) VALUES ($1, $3), ($2, $3)`, [
      reactors[0]!.name, reactors[1]!.name, (journalKey(95n, 0, 0) - 1n).toString(),
    ]);
    const runner = reactorRunner(
      { journal: journalRepository(database.pool, schema), locks: locksRepository(database.pool), logger: createLogger("silent"), pollMs: 20 },
      reactors,
    );
    const { rows } = await database.pool.query(`SELECT id::text FROM "${schema}".journal j WHERE j.type = 'MISSION_ACCEPTED' AND j.id >= $1 ORDER BY j.id`, [
      journalKey(95n, 0, 0).toString(),
    ]);
    const expectedFiltered = rows.map((r: { id: string }) => BigInt(r.id));
    const expectedAll = ids.filter((id) => id >= journalKey(95n, 0, 0));
    runner.start();
    try {
      // Both reactors run on their own cursors: wait for each (on a loaded machine the typed one may
      // finish well after the other), then a moment more in which nothing may arrive twice.
      const deadline = Date.now() + 30_000;
      while ((seen.all.length < expectedAll.length || seen.filtered.length < expectedFiltered.length) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      await new Promise((r) => setTimeout(r, 300)); // nothing more arrives, nothing twice
      expect(seen.all).toEqual(expectedAll);
      expect(seen.filtered).toEqual(expectedFiltered);
    } finally {
      await runner.stop();
    }
  });
});

describe("indexedTime (discovery's chain clock)", () => {
  it("reads the checkpoint's timestamp, and before Ponder's views exist answers null without closing its connection", async () => {
    expect(await journalRepository(admin, schema).indexedTime()).toBe(1);
    // One connection: the same backend must answer before and after the failed reads (pool.query would
    // drop the client over the "relation does not exist" error, and every read would reconnect).
    const one = new pg.Pool({ connectionString: inject("databaseUrl"), max: 1 });
    try {
      const pid = async () => (await one.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
      const before = await pid();
      const early = journalRepository(one, `${schema}_not_there`);
      for (let i = 0; i < 3; i++) expect(await early.indexedTime()).toBeNull();
      expect(await pid()).toBe(before);
      expect(one.totalCount).toBe(1);
    } finally {
      await one.end();
    }
  });
});
