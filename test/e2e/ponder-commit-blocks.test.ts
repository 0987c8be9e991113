// indexer/patches/ponder+0.16.10.patch: Ponder's live path gives every table's reorg rows of a block
// the block's checkpoint in ONE statement (`commitBlocks`), where it sent one UPDATE a table of the
// schema on every block (18 round trips a block for our schema, written or not). Checked on a real
// PostgreSQL with Ponder's own reorg tables: the rows of the pending block (checkpoint MAX) get it,
// older rows keep theirs, the isolated ordering's chain filter holds, and it is one query.
import fs from "node:fs";
import pg from "pg";
import { drizzle } from "drizzle-orm/node-postgres";
import { getTableConfig, pgSchema, text } from "drizzle-orm/pg-core";
// The patched module, by path: Ponder's package exports no entry for its dist files.
// @ts-expect-error no type declarations for Ponder's dist files
import { commitBlocks } from "../../node_modules/ponder/dist/esm/database/actions.js";
// @ts-expect-error no type declarations for Ponder's dist files
import { MAX_CHECKPOINT_STRING, encodeCheckpoint } from "../../node_modules/ponder/dist/esm/utils/checkpoint.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "./lane.ts";

const SCHEMA = `commit_blocks_${process.pid}`;
// Tables as Ponder hands them to commitBlocks: named, in the app's schema (what the function reads).
const a = pgSchema(SCHEMA).table("a", { id: text().primaryKey() });
const b = pgSchema(SCHEMA).table("b", { id: text().primaryKey() });

let pool: pg.Pool;
const sent: string[] = [];

const cp = (chainId: number, blockNumber: number) =>
  encodeCheckpoint({ blockTimestamp: 1_700_000_000n + BigInt(blockNumber), chainId: BigInt(chainId), blockNumber: BigInt(blockNumber), transactionIndex: 0n, eventType: 5, eventIndex: 0n }) as string;

async function rows(table: string) {
  const r = await pool.query(`SELECT id, checkpoint, chain_id FROM "${SCHEMA}"."_reorg__${table}" ORDER BY id`);
  return r.rows.map((x) => `${x.id}:${x.chain_id}:${x.checkpoint === MAX_CHECKPOINT_STRING ? "MAX" : x.checkpoint}`);
}

beforeAll(async () => {
  pool = new pg.Pool({ connectionString: inject("databaseUrl"), max: 1 });
  await pool.query(`CREATE SCHEMA "${SCHEMA}"`);
  for (const t of ["a", "b"]) {
    await pool.query(`CREATE TABLE "${SCHEMA}"."_reorg__${t}" (operation_id serial PRIMARY KEY, operation integer NOT NULL, checkpoint varchar(75) NOT NULL, chain_id integer NOT NULL, id text NOT NULL)`);
  }
});

afterAll(async () => {
  await pool?.query(`DROP SCHEMA IF EXISTS "${SCHEMA}" CASCADE`).catch(() => {});
  await pool?.end();
});

async function commit(checkpoint: string, ordering: string) {
  const client = await pool.connect();
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: unknown }).query = (...args: unknown[]) => {
    const q = args[0] as string | { text: string };
    sent.push(typeof q === "string" ? q : q.text);
    return query(...args);
  };
  try {
    const db = drizzle(client);
    const qb = { wrap: (_opts: unknown, fn: (d: typeof db) => unknown) => fn(db) };
    await commitBlocks(qb, { checkpoint, tables: [a, b], preBuild: { ordering } }, {});
  } finally {
    (client as unknown as { query: unknown }).query = query;
    client.release();
  }
}

describe("Ponder patch: a block's reorg rows committed in one statement", () => {
  it("gives the pending rows of every table the block's checkpoint, in one query, and leaves older rows", async () => {
    expect(getTableConfig(a).schema).toBe(SCHEMA);
    const old = cp(31337, 5);
    await pool.query(`INSERT INTO "${SCHEMA}"."_reorg__a" (operation, checkpoint, chain_id, id) VALUES (0, $1, 31337, 'a-old'), (0, $2, 31337, 'a-new'), (1, $2, 31337, 'a-upd')`, [old, MAX_CHECKPOINT_STRING]);
    await pool.query(`INSERT INTO "${SCHEMA}"."_reorg__b" (operation, checkpoint, chain_id, id) VALUES (2, $1, 31337, 'b-new')`, [MAX_CHECKPOINT_STRING]);
    const block = cp(31337, 6);
    sent.length = 0;
    await commit(block, "multichain");
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^WITH t0 AS \(UPDATE .*_reorg__a.*\), t1 AS \(UPDATE .*_reorg__b.*\) SELECT 1$/);
    expect(await rows("a")).toEqual([`a-new:31337:${block}`, `a-old:31337:${old}`, `a-upd:31337:${block}`]);
    expect(await rows("b")).toEqual([`b-new:31337:${block}`]);
  });

  it("under the isolated ordering commits only the block's own chain", async () => {
    await pool.query(`INSERT INTO "${SCHEMA}"."_reorg__b" (operation, checkpoint, chain_id, id) VALUES (0, $1, 1, 'b-chain1'), (0, $1, 8453, 'b-chain8453')`, [MAX_CHECKPOINT_STRING]);
    const block = cp(8453, 7);
    await commit(block, "experimental_isolated");
    expect((await rows("b")).filter((r) => r.startsWith("b-chain"))).toEqual([`b-chain1:1:MAX`, `b-chain8453:8453:${block}`]);
  });

  it("refuses a checkpoint that is not digits (it is written into the statement)", async () => {
    sent.length = 0;
    await expect(commit("1'; DROP TABLE x; --", "multichain")).rejects.toThrow(/Invalid checkpoint/);
    expect(sent).toHaveLength(0);
  });

  it("is what Ponder's live path calls once a block, in every ordering", () => {
    for (const ordering of ["multichain", "omnichain", "isolated"]) {
      const source = fs.readFileSync(new URL(`../../node_modules/ponder/dist/esm/runtime/${ordering}.js`, import.meta.url), "utf8");
      expect(source).toContain("await commitBlocks(tx, { tables, checkpoint, preBuild }, context);");
      expect(source).not.toMatch(/commitBlock\(/);
    }
  });
});
