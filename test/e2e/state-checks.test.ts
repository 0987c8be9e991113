// The API's columns that hold a chain state take only the names of the domain's list: the CHECK
// constraints that api/db/checks.ts generates from MISSION_STATES (migration 0030), in the real
// PostgreSQL after every migration. Every valid state is accepted on insert and update, anything else
// (another case, a space, a dispute's state, empty) is refused with check_violation, and the
// constraint the database holds names exactly the list. Each case runs in a transaction rolled back.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { migratedDatabase } from "./migrated-db.ts";
import { MISSION_STATES } from "../../domain/index.ts";

const db = migratedDatabase();
const rolledBack = db.rolledBack;

type Attempt = { ok: true } | { ok: false; code?: string; constraint?: string };

/** One statement under a savepoint: its error (if any) without ending the transaction. */
async function attempt(c: pg.PoolClient, text: string, values: unknown[]): Promise<Attempt> {
  await c.query("SAVEPOINT a");
  try {
    await c.query(text, values);
    await c.query("RELEASE SAVEPOINT a");
    return { ok: true };
  } catch (err) {
    await c.query("ROLLBACK TO SAVEPOINT a");
    const e = err as { code?: string; constraint?: string };
    return { ok: false, code: e.code, constraint: e.constraint };
  }
}

/** A read-model row with a text vector (so the search side's trigger copies its state too). */
const insertMission = (c: pg.PoolClient, id: string, state: string) =>
  attempt(
    c,
    `INSERT INTO api.discovery_missions (id, on_chain_id, poster, state, reward, expires_at, created_at, details_hash, search_vector)
     VALUES ($1, 0, '0x0000000000000000000000000000000000000001', $2, 0, 0, 0, '0x00', to_tsvector('simple', 'state check'))`,
    [id, state],
  );
const insertSearch = (c: pg.PoolClient, id: string, state: string) =>
  attempt(c, `INSERT INTO api.discovery_search (id, state, details_hash, search_vector) VALUES ($1, $2, '0x00', to_tsvector('simple', 'x'))`, [id, state]);

const INVALID = ["open", "OPEN", "Open ", " Open", "", "Unknown", "None", "Pending", "Finalized", "Opened"];
const refused = (constraint: string) => ({ ok: false, code: "23514", constraint });

describe("chain states in the API's tables: CHECK constraints from MISSION_STATES", () => {
  it("the database's constraints name exactly the list", async () => {
    const { rows } = await db.pool.query<{ conname: string; def: string }>(
      `SELECT conname, pg_get_constraintdef(c.oid) AS def FROM pg_constraint c
         JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
        WHERE n.nspname = 'api' AND c.contype = 'c' AND conname IN ('discovery_missions_state_check', 'discovery_search_state_check')
        ORDER BY conname`,
    );
    expect(rows.map((r) => r.conname)).toEqual(["discovery_missions_state_check", "discovery_search_state_check"]);
    for (const r of rows) expect([...r.def.matchAll(/'([^']*)'/g)].map((m) => m[1]), r.def).toEqual([...MISSION_STATES]);
  });

  it("api.discovery_missions accepts every valid state (insert and update) and the search side follows", async () => {
    await rolledBack(async (c) => {
      for (const state of MISSION_STATES) {
        const id = randomUUID();
        expect(await insertMission(c, id, state), state).toEqual({ ok: true });
        const { rows } = await c.query("SELECT state FROM api.discovery_search WHERE id = $1", [id]);
        expect(rows, state).toEqual([{ state }]);
      }
      const id = randomUUID();
      expect(await insertMission(c, id, "Open")).toEqual({ ok: true });
      for (const state of MISSION_STATES) {
        expect(await attempt(c, "UPDATE api.discovery_missions SET state = $2 WHERE id = $1", [id, state]), state).toEqual({ ok: true });
      }
    });
  });

  it("api.discovery_missions refuses any other text, on insert and on update, and keeps the row as it was", async () => {
    await rolledBack(async (c) => {
      for (const state of INVALID) {
        expect(await insertMission(c, randomUUID(), state), JSON.stringify(state)).toEqual(refused("discovery_missions_state_check"));
      }
      const id = randomUUID();
      expect(await insertMission(c, id, "Accepted")).toEqual({ ok: true });
      for (const state of INVALID) {
        expect(await attempt(c, "UPDATE api.discovery_missions SET state = $2 WHERE id = $1", [id, state]), JSON.stringify(state))
          .toEqual(refused("discovery_missions_state_check"));
      }
      const { rows } = await c.query("SELECT m.state, s.state AS search_state FROM api.discovery_missions m JOIN api.discovery_search s USING (id) WHERE id = $1", [id]);
      expect(rows).toEqual([{ state: "Accepted", search_state: "Accepted" }]);
    });
  });

  it("api.discovery_search (written by the read model's trigger) has the same check", async () => {
    await rolledBack(async (c) => {
      for (const state of MISSION_STATES) expect(await insertSearch(c, randomUUID(), state), state).toEqual({ ok: true });
      for (const state of INVALID) {
        expect(await insertSearch(c, randomUUID(), state), JSON.stringify(state)).toEqual(refused("discovery_search_state_check"));
      }
    });
  });
});
