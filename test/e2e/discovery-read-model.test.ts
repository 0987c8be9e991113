// The discovery read model (api.discovery_missions) over the real stack: each write's response comes
// after its row is in the read model (read-your-writes), and after a random sequence of creates,
// edits, accepts and cancels a rebuild from scratch gives exactly the rows the incremental path built.
import { operatorOf } from "../../domain/index.ts";
import { type Abi, type Address } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import pg from "pg";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operatorRegistryAbi } from "../../abis/index.ts";
import { discoveryReadModelRepository } from "../../api/repositories/discovery-read-model.repository.ts";
import { call, signIn, startTestApi, type TestApi } from "./api-helpers.ts";
import { chainEnv } from "./indexer-helpers.ts";
import { inject } from "./lane.ts";

let api: TestApi;
let chain: ReturnType<typeof chainEnv>;
let db: pg.Pool;
const tokens = new Map<string, string>();
const tok = (a: { address: Address }) => tokens.get(a.address)!;
const tag = Math.random().toString(36).slice(2, 7);
const chainSchema = () => api.server.deps.env.CHAIN_SCHEMA;

async function freshSignedIn(): Promise<PrivateKeyAccount> {
  const u = await chain.freshUser();
  await chain.send(u, chain.c.OperatorRegistry.address, operatorRegistryAbi as Abi, "setOperator", [operatorOf(chain.deployment), true]);
  tokens.set(u.address, await signIn(api.url, u));
  return u;
}

const row = async (id: string) => (await db.query(`SELECT * FROM api.discovery_missions WHERE id = $1`, [id])).rows[0];
const rowsOf = async (ids: string[]) =>
  (await db.query(
    `SELECT id, on_chain_id::text, poster, performer, state, guild_uuid, reward::text, expires_at::text, created_at::text,
            details_hash, details_created_at, title, description, category, latitude, longitude, rating_sum, rating_count,
            min_guild_xp, min_reputation, premium, search_vector::text, category_lc, geo::text AS geo, pub_latitude, pub_longitude
       FROM api.discovery_missions WHERE id = ANY($1) ORDER BY id`, [ids])).rows;

let posters: PrivateKeyAccount[];
let performer: PrivateKeyAccount;

beforeAll(async () => {
  chain = chainEnv();
  db = new pg.Pool({ connectionString: inject("databaseUrl"), max: 2 });
  api = await startTestApi({}, { indexer: "shared" });
  posters = [await freshSignedIn(), await freshSignedIn()];
  performer = await freshSignedIn();
});
afterAll(async () => {
  await api?.stop();
  await db?.end();
});

describe("discovery read model", () => {
  it("random creates, edits, accepts and cancels: each response sees its row; a rebuild equals the incremental rows", async () => {
    type Op = { kind: "create" | "patch" | "accept" | "cancel"; who: number; pick: number; lat: number; lng: number; word: string };
    const op = fc.record({
      kind: fc.constantFrom("create", "create", "patch", "accept", "cancel"),
      who: fc.integer({ min: 0, max: 1 }),
      pick: fc.nat(),
      // Degrees with 5 decimals (~1 m), as a client sends them.
      lat: fc.integer({ min: -6_000_000, max: 6_000_000 }).map((x) => x / 1e5),
      lng: fc.integer({ min: -17_900_000, max: 17_900_000 }).map((x) => x / 1e5),
      word: fc.stringMatching(/^[a-z]{5,8}$/),
    }) as fc.Arbitrary<Op>;
    const ops = fc.sample(fc.array(op, { minLength: 12, maxLength: 12 }), { numRuns: 1, seed: Date.now() % 100_000 })[0]!;
    const missions: { id: string; poster: number; state: string }[] = [];

    for (const [i, o] of ops.entries()) {
      const open = missions.filter((m) => m.state === "Open" && m.poster === o.who);
      if (o.kind === "create" || open.length === 0) {
        const res = await call(api.url, "POST", "/missions", {
          token: tok(posters[o.who]!),
          body: {
            title: `Errand ${o.word}${tag}`, description: `Random errand ${o.word}`, rewardAmount: String(1 + (o.pick % 50)),
            category: `rm${tag}`, expiresIn: 3600 + (o.pick % 5000), location: { latitude: o.lat, longitude: o.lng, radius: 100 },
          },
        });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        const id = res.body.data.id as string;
        missions.push({ id, poster: o.who, state: "Open" });
        // Read-your-writes: the row is there, with its point, before the response.
        expect(await row(id)).toMatchObject({ state: "Open", title: `Errand ${o.word}${tag}`, latitude: o.lat, longitude: o.lng });
        const near = await call(api.url, "GET", `/missions/nearby?latitude=${o.lat}&longitude=${o.lng}&radius=500`);
        expect(near.status, JSON.stringify(near.body)).toBe(200);
        expect(near.body.missions.map((m: { id: string }) => m.id)).toContain(id);
        continue;
      }
      const m = open[o.pick % open.length]!;
      if (o.kind === "patch") {
        // The op's index keeps two edits of one mission with the same word apart (an unchanged edit is a 409).
        const title = `Edited ${o.word}${tag} n${i}`;
        const res = await call(api.url, "PATCH", `/missions/${m.id}`, { token: tok(posters[o.who]!), body: { title } });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(await row(m.id)).toMatchObject({ title });
        const found = await call(api.url, "GET", `/feed/search?q=${o.word}${tag}`);
        expect(found.status, JSON.stringify(found.body)).toBe(200);
        expect(found.body.results.map((r: { id: string }) => r.id)).toContain(m.id);
      } else if (o.kind === "accept") {
        const res = await call(api.url, "POST", `/missions/${m.id}/accept`, { token: tok(performer) });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        m.state = "Accepted";
        expect(await row(m.id)).toMatchObject({ state: "Accepted", performer: performer.address.toLowerCase() });
      } else {
        const res = await call(api.url, "POST", `/missions/${m.id}/cancel`, { token: tok(posters[o.who]!) });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        m.state = "Cancelled";
        expect(await row(m.id)).toMatchObject({ state: "Cancelled" });
      }
    }

    const ids = missions.map((m) => m.id);
    const incremental = await rowsOf(ids);
    expect(incremental).toHaveLength(ids.length);
    const readModel = discoveryReadModelRepository(db, chainSchema());
    // The map's cell counts, kept by triggers through every create, move, accept and cancel, equal a
    // fresh count (and again after the rebuild).
    expect(await readModel.cellDrift()).toEqual([]);
    // Likewise the feed's (category, guild) totals, and the search rows (api.discovery_search).
    expect(await readModel.totalsDrift()).toEqual([]);
    expect(await readModel.searchDrift()).toEqual([]);
    // And the one-word search's postings (api.discovery_search_terms), kept by triggers on the search rows.
    expect(await readModel.termsDrift()).toEqual([]);
    const rebuilt = await readModel.rebuild();
    expect(rebuilt).toBeGreaterThanOrEqual(ids.length);
    expect(await rowsOf(ids)).toEqual(incremental);
    expect(await readModel.cellDrift()).toEqual([]);
    expect(await readModel.totalsDrift()).toEqual([]);
    expect(await readModel.searchDrift()).toEqual([]);
    expect(await readModel.termsDrift()).toEqual([]);
  });
});
