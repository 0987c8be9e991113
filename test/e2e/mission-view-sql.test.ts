// GET /missions/:id answers with the view PostgreSQL builds (api/repositories/mission-view.sql.ts); the
// rest of the API builds the same view in JavaScript (api/services/mission-view.ts singleView, the
// privacy lens, the location rule). The two must not drift: for missions in every state, with and
// without location, guild, performer and API accounts, each read by the poster, the performer, a
// guild-mate, a stranger and no one, and for each displayName visibility, the HTTP body's data equals
// the JavaScript view of the same mission for the same viewer.
import type { PrivateKeyAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Address } from "viem";
import { call, signIn, startTestApi, type TestApi } from "./api-helpers.ts";
import { chainEnv, usdc } from "./indexer-helpers.ts";
import { freshAuthorisedUser } from "./levels.ts";

let api: TestApi;
let chain: ReturnType<typeof chainEnv>;
let poster: PrivateKeyAccount, mate: PrivateKeyAccount, stranger: PrivateKeyAccount, performer: PrivateKeyAccount;
const tokens = new Map<string, string>();
const missions: string[] = [];
const spot = { latitude: -33.868820, longitude: 151.209290 };

beforeAll(async () => {
  chain = chainEnv();
  api = await startTestApi({ REACTORS_POLL_MS: "50" }, { indexer: "shared" });
  chain.setIndexer(api.follows);
  const operator = api.server.deps.operator!;
  poster = await freshAuthorisedUser(chain, operator);
  mate = await freshAuthorisedUser(chain, operator);
  stranger = await freshAuthorisedUser(chain, operator);
  performer = await freshAuthorisedUser(chain, operator);
  for (const u of [poster, mate, stranger, performer]) tokens.set(u.address, await signIn(api.url, u));
  const as = (u: PrivateKeyAccount) => ({ token: tokens.get(u.address)! });
  expect((await call(api.url, "PATCH", "/users/me", { ...as(poster), body: { displayName: "Poppy Poster" } })).status).toBe(200);
  expect((await call(api.url, "PATCH", "/users/me", { ...as(performer), body: { displayName: "Pat Performer" } })).status).toBe(200);
  const demoId = (await call(api.url, "GET", "/guilds")).body.find((g: any) => g.name === "demo-guild").id;
  for (const u of [poster, mate]) expect((await call(api.url, "POST", `/guilds/${demoId}/join`, as(u))).status).toBe(200);
  const post = async (extra: Record<string, unknown>) => {
    const r = await call(api.url, "POST", "/missions", {
      ...as(poster), body: { title: "Water the ferns", description: "Twice, «gently»\n", rewardAmount: "12.345678", category: "garden", expiresIn: 86_400, ...extra },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.data.id as string;
  };
  const open = await post({ location: { ...spot, radius: 250 }, metadata: { floors: 3, tags: ["ferns", "pots"], note: null } });
  const guild = await post({ guildId: demoId });
  const accepted = await post({ location: { ...spot, radius: 40 } });
  expect((await call(api.url, "POST", `/missions/${accepted}/accept`, as(performer))).status).toBe(200);
  const cancelled = await post({});
  expect((await call(api.url, "POST", `/missions/${cancelled}/cancel`, as(poster))).status).toBe(200);
  missions.push(open, guild, accepted, cancelled);
  // On chain, without details: a completed one between two accounts, and a dispute.
  const done = await chain.completeMission(poster, performer, usdc(3));
  const disputed = await chain.disputed(poster, performer, usdc(2), poster);
  const direct = await chain.createMission(await chain.freshUser(), usdc(1));
  await api.follows!.waitForBlock(direct.receipt.blockNumber);
  for (const onChainId of [done.onChainId, disputed.onChainId, direct.onChainId]) {
    const { rows } = await api.server.deps.database.pool.query(`SELECT id FROM "${api.server.env.CHAIN_SCHEMA}".missions WHERE on_chain_id = $1`, [onChainId.toString()]);
    missions.push(rows[0].id);
  }
  // Whatever else the shared chain holds (other files' missions): more states and shapes.
  const others = (await call(api.url, "GET", "/missions?limit=40")).body.data.map((m: { id: string }) => m.id);
  missions.push(...others.filter((id: string) => !missions.includes(id)));
}, 180_000);
afterAll(async () => {
  await api?.stop();
});

describe("GET /missions/:id (built by PostgreSQL) equals the JavaScript view", () => {
  it("for every reader and every displayName visibility", async () => {
    const readers: [string, PrivateKeyAccount | null][] = [["poster", poster], ["performer", performer], ["guild-mate", mate], ["stranger", stranger], ["no one", null]];
    const svc = api.server.deps.services.missions;
    let compared = 0;
    const seen = { exact: 0, cell: 0, hiddenName: 0, shownName: 0 };
    for (const v of ["public", "guilds_only", "private"]) {
      for (const u of [poster, performer]) {
        const r = await call(api.url, "PATCH", "/vault/permissions", { token: tokens.get(u.address)!, body: { profileVisibility: { displayName: v } } });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
      }
      for (const [who, reader] of readers) {
        for (const id of missions) {
          const res = await call(api.url, "GET", `/missions/${id}`, reader ? { token: tokens.get(reader.address)! } : {});
          expect(res.status, `${who} ${id}`).toBe(200);
          expect(res.headers.get("content-type")).toMatch(/^application\/json/);
          const js = JSON.parse(JSON.stringify(await svc.get(id, reader?.address as Address | undefined)));
          expect(res.body.data, `${who} reads ${id} with displayName=${v}`).toEqual(js);
          compared++;
          if (js.location) seen[js.location.precision === 0 ? "exact" : "cell"]++;
          if (js.poster.evmAddress === poster.address.toLowerCase()) seen[js.poster.resolvedName === "Poppy Poster" ? "shownName" : "hiddenName"]++;
        }
      }
    }
    // The matrix reached every branch of the rules.
    expect(compared).toBeGreaterThanOrEqual(3 * 5 * 7);
    for (const [k, n] of Object.entries(seen)) expect(n, k).toBeGreaterThan(0);
    // Unknown missions are the same error either way.
    const missing = await call(api.url, "GET", "/missions/00000000-0000-0000-0000-000000000000");
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("MISSION_NOT_FOUND");
  });
});
