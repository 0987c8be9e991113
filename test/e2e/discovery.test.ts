// Discovery over HTTP with real wallets (anvil + Postgres + indexer + API): feed, search, nearby,
// presence and location privacy from a stranger, the poster and the performer.
import type { Address } from "viem";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_POOL } from "../../api/db/client.ts";
import { distanceMeters } from "../../api/services/discovery/geo.ts";
import { anvilAccount } from "../../script/lib/accounts.ts";
import { call, signIn, startTestApi, type TestApi } from "./api-helpers.ts";
import { inject } from "./lane.ts";

let api: TestApi;
const [poster, performer, stranger] = [anvilAccount(4), anvilAccount(5), anvilAccount(6)];
const tokens = new Map<string, string>();
const tok = (a: { address: Address }) => tokens.get(a.address)!;
const tag = Math.random().toString(36).slice(2, 7);
const cat = `disc${tag}`;
// A spot no other e2e file uses (Sydney harbour + a random offset).
const here = { latitude: -33.85 + Math.random() * 0.01, longitude: 151.21 + Math.random() * 0.01 };
const north = (lat: number, m: number) => lat + (m / 6_371_008.8) * (180 / Math.PI);
const created: Record<string, string> = {};

const create = async (key: string, over: Record<string, unknown>) => {
  const res = await call(api.url, "POST", "/missions", {
    token: tok(poster),
    body: {
      title: `Walk the dog ${tag}`, description: "Two rounds in the park", rewardAmount: "5", category: cat, expiresIn: 3600,
      location: { ...here, radius: 50 }, ...over,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  created[key] = res.body.data.id;
  return res.body.data.id as string;
};

beforeAll(async () => {
  api = await startTestApi({}, { indexer: "shared" });
  for (const u of [poster, performer, stranger]) tokens.set(u.address, await signIn(api.url, u));
  await create("dog", {});
  await create("big", { title: `<b>Move</b> a piano ${tag}`, rewardAmount: "250.5", expiresIn: 86400 * 6, location: { latitude: north(here.latitude, 800), longitude: here.longitude, radius: 100 }, metadata: { tags: ["heavy", `piano${tag}`] } });
  await create("soon", { title: `Water plants ${tag}`, rewardAmount: "1.25", expiresIn: 600, location: { latitude: north(here.latitude, 3000), longitude: here.longitude, radius: 100 } });
  await create("cancelled", { title: `Cancelled walk ${tag}` });
  const c = await call(api.url, "POST", `/missions/${created.cancelled}/cancel`, { token: tok(poster) });
  expect(c.status, JSON.stringify(c.body)).toBe(200);
});
afterAll(async () => {
  await api?.stop();
});

describe("connections", () => {
  it("a new API opens its warm connections at start, before any request (no request waits for a connect)", async () => {
    const fresh = await startTestApi({ CHAIN_SCHEMA: api.server.env.CHAIN_SCHEMA, INDEXER_URL: api.server.env.INDEXER_URL });
    try {
      const pool = fresh.server.deps.database.pool;
      for (const end = Date.now() + 10_000; pool.totalCount < API_POOL.warm && Date.now() < end; ) await new Promise((r) => setTimeout(r, 50));
      // At least the warm ones (the feed index's load and the change feed's LISTEN open their own meanwhile).
      expect(pool.totalCount).toBeGreaterThanOrEqual(API_POOL.warm);
      for (const end = Date.now() + 10_000; pool.idleCount < API_POOL.warm && Date.now() < end; ) await new Promise((r) => setTimeout(r, 50));
      expect(pool.idleCount).toBeGreaterThanOrEqual(API_POOL.warm - 1); // planned and released (the LISTEN connection stays out)
    } finally {
      await fresh.stop();
    }
  });
});

describe("GET /feed", () => {
  it("requires a token; validates take/sortBy naming the field", async () => {
    expect((await call(api.url, "GET", "/feed")).status).toBe(401);
    const bad = await call(api.url, "GET", "/feed?take=101&sortBy=nope", { token: tok(stranger) });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("VALIDATION_ERROR");
    const fields = bad.body.error.details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(["query.take", "query.sortBy"]));
  });

  it("only Open missions, factors in 0..1, ranked by finalScore, integer rewardAmount", async () => {
    const res = await call(api.url, "GET", `/feed?category=${cat}&latitude=${here.latitude}&longitude=${here.longitude}`, { token: tok(stranger) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.total).toBe(3);
    expect(res.body.totalCapped).toBe(false);
    const ids = res.body.missions.map((m: any) => m.mission.id);
    expect(ids).not.toContain(created.cancelled);
    expect(ids.sort()).toEqual([created.dog, created.big, created.soon].sort());
    for (const [i, m] of res.body.missions.entries()) {
      expect(m.rank).toBe(i + 1);
      for (const k of ["rewardScore", "urgencyScore", "distanceScore", "xpMatchScore", "posterReputationScore", "categoryPreferenceScore"]) {
        expect(m.factors[k]).toBeGreaterThanOrEqual(0);
        expect(m.factors[k]).toBeLessThanOrEqual(1);
      }
      expect(m.factors).toMatchObject({ eligibility: true, guildBoost: 1 });
      if (i > 0) expect(m.factors.finalScore).toBeLessThanOrEqual(res.body.missions[i - 1].factors.finalScore);
    }
    const big = res.body.missions.find((m: any) => m.mission.id === created.big);
    expect(big.mission).toMatchObject({ rewardAmount: "250500000", category: cat, guild: null });
    expect(big.mission.poster.evmAddress).toBe(poster.address.toLowerCase());
    expect(big.mission.location.precision).toBe(2);
    const soon = res.body.missions.find((m: any) => m.mission.id === created.soon);
    expect(soon.factors.urgencyScore).toBeGreaterThan(big.factors.urgencyScore);
    expect(big.factors.rewardScore).toBeGreaterThan(soon.factors.rewardScore);
    const dog = res.body.missions.find((m: any) => m.mission.id === created.dog);
    expect(dog.factors.distanceScore).toBeGreaterThan(soon.factors.distanceScore);
  });

  it("sortBy reward / urgency / distance, skip and take", async () => {
    const q = `/feed?category=${cat}&latitude=${here.latitude}&longitude=${here.longitude}`;
    const ids = async (extra: string) =>
      (await call(api.url, "GET", q + extra, { token: tok(stranger) })).body.missions.map((m: any) => m.mission.id);
    expect(await ids("&sortBy=reward")).toEqual([created.big, created.dog, created.soon]);
    expect(await ids("&sortBy=urgency")).toEqual([created.soon, created.dog, created.big]);
    const byDistance = await call(api.url, "GET", q + "&sortBy=distance", { token: tok(poster) });
    expect(byDistance.body.missions.map((m: any) => m.mission.id)).toEqual([created.dog, created.big, created.soon]);
    const page = await call(api.url, "GET", q + "&sortBy=reward&skip=1&take=1", { token: tok(stranger) });
    expect(page.body.missions.map((m: any) => [m.mission.id, m.rank])).toEqual([[created.dog, 2]]);
    expect(page.body.total).toBe(3);
  });

  it("a window short of missions within 50 km is filled by the newest of the rest (farther or without a location), each once", async () => {
    const cat2 = `${cat}fill`;
    const near = await create("fillNear", { category: cat2 });
    const far = await create("fillFar", { category: cat2, location: { latitude: north(here.latitude, 300_000), longitude: here.longitude, radius: 100 } });
    const nowhere = await create("fillNowhere", { category: cat2, location: undefined });
    const res = await call(api.url, "GET", `/feed?category=${cat2}&latitude=${here.latitude}&longitude=${here.longitude}`, { token: tok(stranger) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.total).toBe(3);
    const byId = new Map(res.body.missions.map((m: any) => [m.mission.id, m]));
    expect([...byId.keys()].sort()).toEqual([near, far, nowhere].sort());
    expect((byId.get(near) as any).factors.distanceScore).toBeGreaterThan(0);
    expect((byId.get(far) as any).factors.distanceScore).toBe(0);
    expect((byId.get(nowhere) as any).factors.distanceScore).toBe(0.5); // unknown distance: neutral (feed-scoring.ts)
    expect((byId.get(nowhere) as any).mission.location).toBeNull();
  });

  it("category preference rises with viewing time", async () => {
    const before = await call(api.url, "GET", `/feed?category=${cat}`, { token: tok(performer) });
    expect(before.body.missions[0].factors.categoryPreferenceScore).toBe(0);
    const v = await call(api.url, "POST", "/feed/views", { token: tok(performer), body: { missionId: created.dog, dwellMs: 90_000 } });
    expect(v.status, JSON.stringify(v.body)).toBe(201);
    const after = await call(api.url, "GET", `/feed?category=${cat}`, { token: tok(performer) });
    expect(after.body.missions[0].factors.categoryPreferenceScore).toBe(1);
    expect((await call(api.url, "POST", "/feed/views", { token: tok(performer), body: { missionId: "nope" } })).status).toBe(404);
  });
});

describe("GET /feed/search", () => {
  it("full-text over titles, descriptions and tags; highlights are escaped", async () => {
    const res = await call(api.url, "GET", `/feed/search?q=piano${tag}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ query: `piano${tag}`, total: 1, totalCapped: false });
    const byTitle = await call(api.url, "GET", `/feed/search?q=piano&category=${cat}`);
    expect(byTitle.body.total).toBe(1);
    const r = byTitle.body.results[0];
    expect(r).toMatchObject({ id: created.big, description: "Two rounds in the park" });
    expect(r.relevanceScore).toBeGreaterThan(0);
    expect(r.highlightedTitle).toBe(`&lt;b&gt;Move&lt;/b&gt; a <em>piano</em> ${tag}`);
    const desc = await call(api.url, "GET", `/feed/search?q=park%20rounds&category=${cat}&state=Open`);
    expect(desc.body.total).toBe(3);
    const cancelled = await call(api.url, "GET", `/feed/search?q=walk&category=${cat}&state=Cancelled`);
    expect(cancelled.body.results.map((x: any) => x.id)).toEqual([created.cancelled]);
    const limited = await call(api.url, "GET", `/feed/search?q=park&category=${cat}&limit=1`);
    expect(limited.body.results).toHaveLength(1);
    expect(limited.body.total).toBe(4);
  });
  it("q is required", async () => {
    const res = await call(api.url, "GET", "/feed/search?q=");
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].field).toBe("query.q");
  });
});

describe("GET /missions/nearby and privacy", () => {
  it("distance, radius, reward filters, clusters, bounds", async () => {
    const q = `/missions/nearby?latitude=${here.latitude}&longitude=${here.longitude}&category=${cat}`;
    const res = await call(api.url, "GET", `${q}&radius=1000`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.totalCount).toBe(2);
    expect(res.body.totalCapped).toBe(false);
    expect(res.body.missions.map((m: any) => m.id).sort()).toEqual([created.dog, created.big].sort());
    const dog = res.body.missions.find((m: any) => m.id === created.dog);
    const big = res.body.missions.find((m: any) => m.id === created.big);
    // Strangers get the distance to the public (neighbourhood) point, never to the exact one.
    expect(dog.distance).toBeCloseTo(distanceMeters(here.latitude, here.longitude, dog.location.latitude, dog.location.longitude), 0);
    expect(big.distance).toBeCloseTo(distanceMeters(here.latitude, here.longitude, big.location.latitude, big.location.longitude), 0);
    expect(res.body.missions[0].distance).toBeLessThanOrEqual(res.body.missions[1].distance);
    const own = await call(api.url, "GET", `${q}&radius=1000`, { token: tok(poster) });
    expect(own.body.missions.map((m: any) => m.id)).toEqual([created.dog, created.big]);
    expect(own.body.missions[0].distance).toBe(0);
    expect(own.body.missions[1].distance).toBeCloseTo(800, 0);
    expect(big).toMatchObject({ rewardAmount: "250500000", guildId: "", guildName: "", isEligible: true });
    expect(big.location.precision).toBe(2);
    expect(big.location.geohash).toHaveLength(6);
    expect(res.body.bounds.north).toBeGreaterThan(here.latitude);
    expect(res.body.bounds.south).toBeLessThan(here.latitude);
    expect((await call(api.url, "GET", `${q}`)).body.totalCount).toBe(3);
    expect((await call(api.url, "GET", `${q}&minReward=1.25&maxReward=5`)).body.missions.map((m: any) => m.id).sort()).toEqual([created.dog, created.soon].sort());
    expect((await call(api.url, "GET", `${q}&radius=50000&limit=1`)).body.missions).toHaveLength(1);
    const wide = await call(api.url, "GET", `${q}&radius=50000`);
    expect(wide.body.clusters.reduce((a: number, c: any) => a + c.count, 0)).toBeGreaterThanOrEqual(2);
    expect(wide.body.clusters[0]).toMatchObject({ count: expect.any(Number), expansionZoom: expect.any(Number), bounds: expect.any(Object) });
  });

  it("validation: required coordinates, radius max, amounts", async () => {
    const r = await call(api.url, "GET", "/missions/nearby?latitude=91&radius=60000&minReward=1.1234567");
    expect(r.status).toBe(400);
    const fields = r.body.error.details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(["query.latitude", "query.longitude", "query.radius", "query.minReward"]));
  });

  it("exact only to the poster, and to the performer after acceptance", async () => {
    const q = `/missions/nearby?latitude=${here.latitude}&longitude=${here.longitude}&category=${cat}&radius=100`;
    const loc = async (who?: { address: Address }) =>
      (await call(api.url, "GET", q, { token: who ? tok(who) : undefined })).body.missions.find((m: any) => m.id === created.dog).location;
    const exact = { latitude: here.latitude, longitude: here.longitude, precision: 0 };
    expect(await loc(poster)).toMatchObject(exact);
    expect((await loc(performer)).precision).toBe(2);
    expect((await loc(stranger)).precision).toBe(2);
    expect((await loc()).latitude).not.toBe(here.latitude);
    const acc = await call(api.url, "POST", `/missions/${created.dog}/accept`, { token: tok(performer) });
    expect(acc.status, JSON.stringify(acc.body)).toBe(200);
    // Accepted missions leave the map and the feed; the single view shows the rule too.
    const single = async (who: { address: Address }) => (await call(api.url, "GET", `/missions/${created.dog}`, { token: tok(who) })).body.data.location;
    expect(await single(performer)).toMatchObject({ latitude: here.latitude, longitude: here.longitude, precision: 0 });
    expect(await single(poster)).toMatchObject({ latitude: here.latitude, precision: 0 });
    expect((await single(stranger)).precision).toBe(2);
    expect((await single(stranger)).latitude).not.toBe(here.latitude);
    expect((await call(api.url, "GET", q)).body.missions.map((m: any) => m.id)).not.toContain(created.dog);
  });
});

describe("POST /missions/:id/verify-presence", () => {
  it("spec example: 50 m geofence, 120 m away; history stored (the performer shares every exact check)", async () => {
    const sharing = (locationSharing: object) => call(api.url, "PATCH", "/vault/permissions", { token: tok(performer), body: { locationSharing } });
    expect((await sharing({ enabled: true, precision: "exact", liveTrackingConsent: true })).status).toBe(200);
    const res = await call(api.url, "POST", `/missions/${created.dog}/verify-presence`, {
      token: tok(performer), body: { latitude: north(here.latitude, 120), longitude: here.longitude, accuracy: 10 },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ verified: true, withinGeofence: false, graceApplied: true, geofenceRadius: 50 });
    expect(res.body.distanceFromMission).toBeCloseTo(120, 0);
    const far = await call(api.url, "POST", `/missions/${created.dog}/verify-presence`, {
      token: tok(performer), body: { latitude: north(here.latitude, 200), longitude: here.longitude, accuracy: 10 },
    });
    expect(far.body).toMatchObject({ verified: false, withinGeofence: false, graceApplied: false });
    const blurry = await call(api.url, "POST", `/missions/${created.dog}/verify-presence`, {
      token: tok(performer), body: { ...here, accuracy: 150 },
    });
    expect(blurry.body).toMatchObject({ verified: false, withinGeofence: true });
    const pool = new pg.Pool({ connectionString: inject("databaseUrl") });
    const rows = await pool.query(`SELECT verified FROM api.location_history WHERE mission_id = $1 ORDER BY id`, [created.dog]);
    await pool.end();
    expect(rows.rows.map((r) => r.verified)).toEqual([true, false, false]);
    expect((await sharing({ enabled: false, precision: "neighborhood", liveTrackingConsent: false })).status).toBe(200);
  });
  it("errors: 401, 404, 400 naming the field", async () => {
    expect((await call(api.url, "POST", `/missions/${created.dog}/verify-presence`, { body: { ...here, accuracy: 5 } })).status).toBe(401);
    const nf = await call(api.url, "POST", `/missions/00000000-0000-8000-8000-000000000000/verify-presence`, { token: tok(performer), body: { ...here, accuracy: 5 } });
    expect(nf.status).toBe(404);
    const bad = await call(api.url, "POST", `/missions/${created.dog}/verify-presence`, { token: tok(performer), body: { latitude: 100, longitude: 0 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { field: string }) => d.field)).toEqual(expect.arrayContaining(["body.latitude", "body.accuracy"]));
  });
});

describe("OpenAPI", () => {
  it("lists every discovery path", async () => {
    const doc = (await call(api.url, "GET", "/openapi.json")).body;
    for (const p of ["/feed", "/feed/search", "/feed/views", "/missions/nearby", "/missions/{id}/verify-presence"]) expect(doc.paths[p], p).toBeDefined();
  });
});
