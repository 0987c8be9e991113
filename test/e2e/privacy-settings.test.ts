// Vault settings that act: every field of the permissions object (read from the zod schema, so a new
// field without an effect here fails) changes what others receive. Profile visibility is read by a
// stranger, a guild-mate (both in demo-guild, joined on chain through the API) and the owner, for
// each value, on every endpoint that shows the field.
import pg from "pg";
import type { PrivateKeyAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Permissions } from "../../api/routes/community/vault.routes.ts";
import { call, signIn, startTestApi, type TestApi } from "./api-helpers.ts";
import { chainEnv, usdc } from "./indexer-helpers.ts";
import { freshAuthorisedUser } from "./levels.ts";
import { inject } from "./lane.ts";

let api: TestApi;
let chain: ReturnType<typeof chainEnv>;
let db: pg.Pool;
let owner: PrivateKeyAccount, mate: PrivateKeyAccount, stranger: PrivateKeyAccount, counterpart: PrivateKeyAccount;
const tokens = new Map<string, string>();
const tok = (a: { address: string }) => tokens.get(a.address)!;
let demoId = "";
let openMission = "", acceptedMission = "", performedMission = "", disputeId = "";
const NAME = "Private Pat", BIO = "Bio only friends may read";
const spot = { latitude: 48.137154, longitude: 11.576124 };

const VALUES = ["public", "guilds_only", "private"] as const;
const readers = () => [
  { who: "owner", as: owner, sees: (_v: string) => true },
  { who: "guild-mate", as: mate, sees: (v: string) => v !== "private" },
  { who: "stranger", as: stranger, sees: (v: string) => v === "public" },
];
const setVisibility = async (field: string, value: string) => {
  const r = await call(api.url, "PATCH", "/vault/permissions", { token: tok(owner), body: { profileVisibility: { [field]: value } } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
};
const get = (path: string, who: PrivateKeyAccount) => call(api.url, "GET", path, { token: tok(who) });
const me = () => owner.address.toLowerCase();

beforeAll(async () => {
  chain = chainEnv();
  api = await startTestApi({ REACTORS_POLL_MS: "50" }, { indexer: "shared" });
  chain.setIndexer(api.follows);
  db = new pg.Pool({ connectionString: inject("databaseUrl"), max: 2 });
  const operator = api.server.deps.operator!;
  // One at a time: the faucet account funds each, and parallel sends would race its nonce.
  owner = await freshAuthorisedUser(chain, operator);
  mate = await freshAuthorisedUser(chain, operator);
  stranger = await freshAuthorisedUser(chain, operator);
  counterpart = await freshAuthorisedUser(chain, operator);
  for (const u of [owner, mate, stranger, counterpart]) tokens.set(u.address, await signIn(api.url, u));
  expect((await call(api.url, "PATCH", "/users/me", { token: tok(owner), body: { displayName: NAME, bio: BIO } })).status).toBe(200);
  demoId = (await call(api.url, "GET", "/guilds")).body.find((g: any) => g.name === "demo-guild").id;
  for (const u of [owner, mate]) {
    const j = await call(api.url, "POST", `/guilds/${demoId}/join`, { token: tok(u) });
    expect(j.status, JSON.stringify(j.body)).toBe(200);
  }
  const post = async (title: string) => {
    const r = await call(api.url, "POST", "/missions", {
      token: tok(owner), body: { title, description: "x", rewardAmount: "5", category: "errands", expiresIn: 86_400, location: { ...spot, radius: 100 } },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.data.id as string;
  };
  openMission = await post("Still open");
  acceptedMission = await post("Taken");
  const accepted = await call(api.url, "POST", `/missions/${acceptedMission}/accept`, { token: tok(counterpart) });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  // The owner as performer, completed on chain: history on the other side.
  const done = await chain.completeMission(counterpart, owner, usdc(1023));
  performedMission = (await get(`/missions?performerId=${owner.address}&limit=100`, owner)).body.data
    .find((m: any) => m.onChainId === done.onChainId.toString()).id;
  // A dispute with the owner as performer: its views name both parties.
  const disputed = await chain.disputed(counterpart, owner, usdc(2), counterpart);
  const { rows } = await db.query(`SELECT id FROM "${api.server.env.CHAIN_SCHEMA}".disputes WHERE on_chain_id = $1`, [disputed.disputeId.toString()]);
  disputeId = rows[0].id;
}, 180_000);
afterAll(async () => {
  await api?.stop();
  await db?.end();
});

describe("profileVisibility: a stranger, a guild-mate and the owner, for each value", () => {
  it("displayName: user profile, guild members, leaderboard, mission poster and performer views, mission lists, dispute views", async () => {
    for (const v of VALUES) {
      await setVisibility("displayName", v);
      for (const r of readers()) {
        const name = r.sees(v) ? NAME : null;
        const label = `${r.who} reads displayName=${v}`;
        const profile = await get(`/users/${owner.address}`, r.as);
        expect(profile.body.displayName, label).toBe(name);
        const members = await get(`/guilds/${demoId}/members`, r.as);
        expect(members.body.find((m: any) => m.user.evmAddress === me()).user.displayName, label).toBe(name);
        const board = await get("/xp/leaderboard?limit=500", r.as);
        expect(board.body.find((e: any) => e.user.evmAddress === me()).user.displayName, label).toBe(name);
        const shown = r.sees(v) ? NAME : `${me().slice(0, 6)}…${me().slice(-4)}`;
        expect((await get(`/missions/${openMission}`, r.as)).body.data.poster.resolvedName, label).toBe(shown);
        expect((await get(`/missions/${performedMission}`, r.as)).body.data.performer.resolvedName, label).toBe(shown);
        const listed = await get(`/missions?posterId=${owner.address}&state=Open&limit=100`, r.as);
        expect(listed.body.data.find((m: any) => m.id === openMission).poster.resolvedName, label).toBe(shown);
        expect((await get(`/resolver/disputes/${disputeId}`, r.as)).body.performer.displayName, label).toBe(shown);
        const byMission = await get(`/resolver/disputes?role=performer`, r.as);
        if (r.who === "owner") expect(byMission.body.disputes.find((d: any) => d.id === disputeId).performer.displayName, label).toBe(NAME);
      }
    }
  });

  it("bio: the user profile; the response keeps its shape", async () => {
    for (const v of VALUES) {
      await setVisibility("bio", v);
      for (const r of readers()) {
        const profile = await get(`/users/${owner.address}`, r.as);
        expect(profile.body.bio, `${r.who} reads bio=${v}`).toBe(r.sees(v) ? BIO : null);
        expect(Object.keys(profile.body)).toContain("bio");
      }
    }
    const anonymous = await call(api.url, "GET", `/users/${owner.address}`);
    expect(anonymous.body.bio, "private: signed out sees nothing either").toBeNull();
  });

  it("stats: GET /users/:id/stats and /ratings/user/:id/stats answer 403 FORBIDDEN to those who may not see them", async () => {
    for (const v of VALUES) {
      await setVisibility("stats", v);
      for (const r of readers()) {
        for (const path of [`/users/${owner.address}/stats`, `/ratings/user/${owner.address}/stats`]) {
          const res = await get(path, r.as);
          const label = `${r.who} reads ${path} with stats=${v}`;
          if (r.sees(v)) expect(res.status, label).toBe(200);
          else expect([res.status, res.body.error?.code], label).toEqual([403, "FORBIDDEN"]);
        }
      }
    }
    expect((await call(api.url, "GET", `/users/${owner.address}/stats`)).status, "signed out").toBe(403);
  });

  it("missionHistory: others see only the poster's Open missions (the public feed's), and none performed", async () => {
    for (const v of VALUES) {
      await setVisibility("missionHistory", v);
      for (const r of readers()) {
        const label = `${r.who} lists with missionHistory=${v}`;
        const posted = (await get(`/missions?posterId=${owner.address}&limit=100`, r.as)).body;
        const ids = posted.data.map((m: any) => m.id);
        expect(ids, label).toContain(openMission);
        expect(ids.includes(acceptedMission), label).toBe(r.sees(v));
        expect(posted.meta.total, label).toBe(posted.data.length);
        const accepted = (await get(`/missions?posterId=${owner.address}&state=Accepted&limit=100`, r.as)).body.data;
        expect(accepted.map((m: any) => m.id).includes(acceptedMission), label).toBe(r.sees(v));
        const performed = (await get(`/missions?performerId=${owner.address}&limit=100`, r.as)).body.data;
        expect(performed.map((m: any) => m.id).includes(performedMission), label).toBe(r.sees(v));
      }
    }
  });
});

describe("locationSharing", () => {
  const check = (body = { ...spot, accuracy: 5 }) =>
    call(api.url, "POST", `/missions/${openMission}/verify-presence`, { token: tok(owner), body });
  const kept = async () =>
    (await db.query(`SELECT latitude, longitude FROM api.location_history WHERE mission_id = $1 ORDER BY id`, [openMission])).rows;
  const share = async (locationSharing: object) =>
    expect((await call(api.url, "PATCH", "/vault/permissions", { token: tok(owner), body: { locationSharing } })).status).toBe(200);

  it("enabled: false verifies the presence and keeps no location history", async () => {
    await share({ enabled: false });
    const res = await check();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.verified).toBe(true);
    expect(await kept()).toEqual([]);
    await share({ enabled: true, precision: "exact", liveTrackingConsent: false });
    expect((await check()).body.verified).toBe(true);
    expect(await kept()).toEqual([spot]);
  });

  it("liveTrackingConsent: without it only the latest check of a mission is kept; with it, every check", async () => {
    await share({ enabled: true, precision: "exact", liveTrackingConsent: false });
    await check();
    await check();
    expect((await kept()).length).toBe(1);
    await share({ liveTrackingConsent: true });
    await check();
    expect((await kept()).length).toBe(2);
  });

  it("precision: a kept position is no finer than the setting (block: geohash-7 cell, neighborhood: geohash-6 cell)", async () => {
    await share({ enabled: true, liveTrackingConsent: false, precision: "block" });
    await check();
    const [block] = await kept();
    expect(block).not.toEqual(spot);
    expect(Math.abs(block.latitude - spot.latitude)).toBeLessThan(0.001);
    await share({ precision: "neighborhood" });
    await check();
    const [hood] = await kept();
    expect(hood).not.toEqual(block);
    expect(Math.abs(hood.latitude - spot.latitude)).toBeLessThan(0.006);
    // The mission's own place: exact to the parties, the neighborhood cell to everyone else (unchanged).
    expect((await get(`/missions/${openMission}`, stranger)).body.data.location.precision).toBe(2);
    expect((await get(`/missions/${openMission}`, owner)).body.data.location.precision).toBe(0);
  });
});

describe("every field of the permissions object has an effect", () => {
  const leaves = Object.entries(Permissions.shape).flatMap(([group, schema]) =>
    Object.keys((schema as unknown as { shape: object }).shape).map((k) => `${group}.${k}`));
  // Shown by the tests above (by name).
  const ABOVE = [
    "profileVisibility.displayName", "profileVisibility.bio", "profileVisibility.stats", "profileVisibility.missionHistory",
    "locationSharing.enabled", "locationSharing.precision", "locationSharing.liveTrackingConsent",
  ];
  // The vault's switches are the notification preferences that the notification reactor and the push
  // dispatcher obey (their own tests show that): here, that each switch lands there.
  const SWITCHES = { push: "pushEnabled", email: "emailEnabled", marketing: "marketingUpdates" } as const;
  it("the schema's fields are exactly the ones shown to act", () => {
    expect(leaves.sort()).toEqual([...ABOVE, ...Object.keys(SWITCHES).map((k) => `notifications.${k}`)].sort());
  });
  it.each(Object.entries(SWITCHES))("notifications.%s sets the preference %s", async (k, pref) => {
    for (const value of [false, true]) {
      const r = await call(api.url, "PATCH", "/vault/permissions", { token: tok(stranger), body: { notifications: { [k]: value } } });
      expect(r.status).toBe(200);
      expect((await get("/notifications/preferences", stranger)).body[pref], `${k}=${value}`).toBe(value);
    }
  });
});
