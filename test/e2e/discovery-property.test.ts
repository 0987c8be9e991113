// Property tests of the map and search over the read model: random missions (chain rows + details in a
// chain schema of this file's own, projected by the incremental path) and random queries; every answer
// is compared with a brute-force reference computed in JS over all rows: the same missions in the same
// order, exact totals, clusters equal to clustering every mission in the radius; the feed (by relevance
// from the in-memory index, the other sorts in SQL) equals the JS scoring reference (feed-scoring.ts)
// over every row, and the index follows the read model's changes.
import crypto from "node:crypto";
import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { discoveryReadModelRepository } from "../../api/repositories/discovery-read-model.repository.ts";
import { discoveryRepository } from "../../api/repositories/discovery.repository.ts";
import { discoveryFeedRepository } from "../../api/repositories/discovery-feed.repository.ts";
import { discoveryFeedSourceRepository } from "../../api/repositories/discovery-feed-source.repository.ts";
import { createFeedIndex } from "../../api/services/discovery/feed-index/index.ts";
import { clusterPoints, zoomForRadius } from "../../api/services/discovery/cluster.ts";
import { discoveryService } from "../../api/services/discovery/discovery.service.ts";
import { OPEN_LENS } from "../../api/services/privacy.ts";
import type { UserRow } from "../../api/repositories/users.repository.ts";
import { distanceMeters } from "../../api/services/discovery/geo.ts";
import {
  categoryPreferences, combine, distanceScore, experience, GUILD_BOOST, posterReputationScore, rewardScore, sortFeed, urgencyScore,
  WEIGHTS, xpMatchScore,
} from "../../api/services/discovery/feed-scoring.ts";
import { viewLocation } from "../../api/services/discovery/location-privacy.ts";
import { chainTables, chainViews } from "../../script/bench/lib/chain-ddl.ts";
import { createDatabase } from "../../api/db/client.ts";
import { runMigrations } from "../../api/db/migrate.ts";
import { inject } from "./lane.ts";

const tag = crypto.randomBytes(4).toString("hex");
const P = `prop_p_${tag}`;
const C = `prop_c_${tag}`;
let pool: pg.Pool;
// An area no other e2e file uses (south of New Zealand), a few km across so radii catch many.
const AREA = { lat: -49.5, lng: 170.2 };
const N = 400;
// A dense district far from AREA (≈ 900 open missions per km², hundreds per neighbourhood cell) for the map's
// cell counts: circles there cut cells holding missions on both sides of their edge. Its own category
// and titles keep it out of the other tests' references.
const AREA2 = { lat: -48.9, lng: 171.4 };
const DENSE = 1500;
const GUILD = crypto.randomUUID();
const nowSec = Math.floor(Date.now() / 1000);

interface M { id: string; poster: string; performer: string | null; guild: string | null; state: string; reward: bigint; expiresAt: number; lat: number; lng: number; category: string; title: string }
const missions: M[] = [];
const addr = (i: number) => `0x${i.toString(16).padStart(40, "0")}`;

beforeAll(async () => {
  const migrations = createDatabase(inject("databaseUrl"), 2);
  await runMigrations(migrations).finally(() => migrations.close()); // this file starts no API
  pool = new pg.Pool({ connectionString: inject("databaseUrl"), max: 4 });
  await pool.query(`CREATE SCHEMA "${P}"; CREATE SCHEMA "${C}"`);
  const tables = chainTables(P);
  for (const t of tables.filter((t) => ["missions", "user_stats", "board_entries", "guilds", "guild_members", "ratings"].includes(t.name))) {
    await pool.query(t.create);
    for (const c of t.constraints) await pool.query(c);
  }
  for (const v of chainViews(P, C)) await pool.query(v).catch(() => {}); // views of tables not created here are not needed
  const rnd = fc.sample(fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.nat(1000), fc.nat(20)), { numRuns: N + DENSE, seed: 7 });
  // A row of a chain table: the given columns, neutral values for the other required ones.
  const ESCROW = "0x00000000000000000000000000000000000e5c80";
  const insert = async (table: string, known: Record<string, unknown>) => {
    const used = tables.find((t) => t.name === table)!.columns.filter((c) => c.name in known || c.notNull);
    const val = (c: { name: string; type: string }) =>
      c.name in known ? known[c.name] : /int|numeric/.test(c.type) ? 0 : c.type === "boolean" ? false : c.type.startsWith("json") ? "{}" : "x";
    await pool.query(`INSERT INTO "${P}".${table} (${used.map((c) => `"${c.name}"`).join(",")}) VALUES (${used.map((_, j) => `$${j + 1}`).join(",")})`, used.map(val));
  };
  // Poster reputations, the member's XP and guild, and one good rating (a category preference) for the feed.
  for (let i = 1; i <= 4; i++) await insert("user_stats", { address: addr(i), rating_count: i - 1, rating_sum: (i - 1) * (1 + i) });
  await insert("user_stats", { address: addr(9), total_xp: 1200 });
  await insert("guild_members", { id: `${GUILD}-9`, guild_on_chain_id: 1, guild_uuid: GUILD, account: addr(9), guild_xp: 50, active: true });
  await insert("guilds", { id: GUILD, name: `guild-${tag}` }); // a name for the display reads to compare
  for (let i = 0; i < N + DENSE; i++) {
    const [dx, dy, r, k] = rnd[i]!;
    const dense = i >= N;
    // Clumps on a few cell centres (stacked neighbourhood points) and spread points; the dense district.
    const lat = dense ? Math.round((AREA2.lat + dy * 0.005) * 1e6) / 1e6 : Math.round((AREA.lat + dy * (k % 3 === 0 ? 0.002 : 0.06)) * 1e5) / 1e5;
    const lng = dense ? Math.round((AREA2.lng + dx * 0.0075) * 1e6) / 1e6 : Math.round((AREA.lng + dx * (k % 3 === 0 ? 0.003 : 0.09)) * 1e5) / 1e5;
    const m: M = {
      id: crypto.randomUUID(), poster: addr(1 + (k % 4)), performer: k % 7 === 0 ? addr(9) : null, guild: k % 6 === 1 ? GUILD : null,
      state: k % 5 === 0 ? "Cancelled" : k % 7 === 0 ? "Accepted" : "Open", reward: BigInt(1 + r) * 1_000_000n,
      expiresAt: k === 3 ? nowSec - 100 : nowSec + 3600 + r, lat, lng, category: dense ? `pc${tag}` : k % 2 ? `pa${tag}` : `pb${tag}`, title: dense ? `Dense ${tag} d${k}` : `Prop ${tag} item${k}`,
    };
    missions.push(m);
    const hash = `0x${crypto.randomBytes(32).toString("hex")}`;
    const onChainId = 5_000_000 + i;
    const known: Record<string, unknown> = {
      id: m.id, on_chain_id: onChainId, escrow_address: ESCROW, poster: m.poster, performer: m.performer, state: m.state, reward: m.reward.toString(),
      details_hash: hash, expires_at: m.expiresAt, created_at: nowSec - i, guild_on_chain_id: m.guild ? 1 : 0, guild_uuid: m.guild,
    };
    await insert("missions", known);
    await pool.query(
      `INSERT INTO api.mission_details (details_hash, on_chain_id, escrow_address, title, description, category, latitude, longitude, radius, salt) VALUES ($1, $2, $7, $3, 'prop', $4, $5, $6, 50, 's')`,
      [hash, String(onChainId), m.title, m.category, lat, lng, ESCROW]);
  }
  await insert("ratings", { uid: `r${tag}`, mission_id: missions.find((m) => m.category === `pa${tag}`)!.id, rater: addr(9), score: 5, counted: true });
  await discoveryReadModelRepository(pool, C).refresh(missions.map((m) => m.id));
});
afterAll(async () => {
  await pool?.query(`DELETE FROM api.discovery_missions WHERE id = ANY($1)`, [missions.map((m) => m.id)]);
  await pool?.query(`DROP SCHEMA IF EXISTS "${C}" CASCADE; DROP SCHEMA IF EXISTS "${P}" CASCADE`);
  await pool?.end();
});

const service = () => discoveryService({
  repo: discoveryRepository(pool, C),
  feed: discoveryFeedRepository(pool),
  journal: { indexedTime: async () => null },
  missions: { findById: async () => null },
  // The sampled posters have no API account, hence no vault: every name shows (privacy.ts).
  privacy: { lens: async () => OPEN_LENS, locationSharing: async () => { throw new Error("not used"); } },
});

describe("map and search over the read model = brute force over every row", () => {
  it("feed: the index's and the SQL ranking = the JS reference (feed-scoring.ts) over every row, any page", async () => {
    const repo = discoveryRepository(pool, C);
    const feed = discoveryFeedRepository(pool);
    // Small blocks: the fixture's few hundred missions span many, so the block bounds are exercised.
    const index = createFeedIndex(discoveryFeedSourceRepository(pool, C), { block: 8 });
    const query = fc.record({
      dLat: fc.double({ min: -0.05, max: 0.05, noNaN: true }),
      dLng: fc.double({ min: -0.07, max: 0.07, noNaN: true }),
      located: fc.boolean(),
      viewer: fc.constantFrom(addr(1), addr(9), addr(77)),
      category: fc.constantFrom(`pa${tag}`, `pb${tag}`),
      // Relevance twice as often: its pages come from the index, the others from SQL.
      sortBy: fc.constantFrom("relevance" as const, "relevance" as const, "reward" as const, "distance" as const, "urgency" as const),
      skip: fc.integer({ min: 0, max: 150 }),
      take: fc.integer({ min: 1, max: 100 }),
    });
    const now = nowSec + 7;
    const plans = { index: 0, sql: 0, indexBounded: 0 };
    for (const q of fc.sample(query, { numRuns: 40, seed: 13 })) {
      const lat = q.located ? AREA.lat + q.dLat : undefined;
      const lng = q.located ? AREA.lng + q.dLng : undefined;
      const ctx = await repo.userContext(q.viewer, null);
      const prefs = categoryPreferences(ctx.engagement);
      const reader = {
        nowSec: now, category: q.category, latitude: lat, longitude: lng, viewer: q.viewer, experience: experience(ctx.totalXp),
        guilds: ctx.guilds, reputation: ctx.reputation, level: ctx.level, preferences: prefs, weights: WEIGHTS, guildBoost: GUILD_BOOST, skip: q.skip, take: q.take,
      };
      const matching = missions.filter((m) => m.state === "Open" && m.expiresAt > now && m.category === q.category).length;
      let rows;
      if (q.sortBy === "relevance") {
        const r = await index.rank(reader);
        rows = r.rows;
        // The page's display names come with its rows: the same as the SQL display() read.
        const names = await repo.display(r.rows);
        expect(r.rows.map((x) => ({ id: x.id, guild_name: x.guild_name, poster_id: x.poster_id, poster_name: x.poster_name })))
          .toEqual(r.rows.map((x) => names.get(x.id)));
        plans.index++;
        // Missions read: fewer than match when the block bounds kept some out.
        if (r.visited < matching) plans.indexBounded++;
      } else {
        rows = await feed.page({ ...reader, sortBy: q.sortBy });
        plans.sql++;
      }
      // The exact total from the (category, guild) totals less the expired ones (the SQL path's).
      expect(await feed.total({ nowSec: now, category: q.category })).toBe(matching);
      const got = rows.map((r) => ({
        id: r.id, distance: r.distance,
        factors: combine({
          eligibility: r.eligible, rewardScore: r.reward_score, urgencyScore: r.urgency_score, distanceScore: r.distance_score,
          xpMatchScore: r.xp_match_score, guildBoost: r.guild_boost, posterReputationScore: r.poster_score, categoryPreferenceScore: r.category_score,
        }),
      }));
      const stats = (a: string) => { const i = parseInt(a.slice(2), 16); return i <= 4 ? { sum: (i - 1) * (1 + i), count: i - 1 } : { sum: 0, count: 0 }; };
      const reference = sortFeed(missions.filter((m) => m.state === "Open" && m.expiresAt > now && m.category === q.category).map((m) => {
        const loc = viewLocation(m.lat, m.lng, q.viewer === m.poster || q.viewer === m.performer);
        const d = lat === undefined || lng === undefined ? null : Math.round(distanceMeters(lat, lng, loc.latitude, loc.longitude) * 10) / 10;
        const rs = rewardScore(m.reward);
        const member = m.guild !== null && ctx.guilds.has(m.guild);
        const factors = combine({
          eligibility: m.guild === null || member, rewardScore: rs, urgencyScore: urgencyScore(m.expiresAt, now), distanceScore: distanceScore(d),
          xpMatchScore: xpMatchScore(ctx.totalXp, rs), guildBoost: member ? GUILD_BOOST : 1,
          posterReputationScore: posterReputationScore(stats(m.poster).sum, stats(m.poster).count),
          categoryPreferenceScore: prefs.get(m.category.toLowerCase()) ?? 0,
        });
        return { id: m.id, reward: m.reward, distance: d, expiresAt: m.expiresAt, factors };
      }), q.sortBy).slice(q.skip, q.skip + q.take);
      expect(got.map((g) => g.id), JSON.stringify(q)).toEqual(reference.map((r) => r.id));
      expect(got.map((g) => [g.distance, g.factors])).toEqual(reference.map((r) => [r.distance, r.factors]));
    }
    // Both paths ran, and the index's bound spared some distance computations.
    expect(plans.index, JSON.stringify(plans)).toBeGreaterThanOrEqual(5);
    expect(plans.sql, JSON.stringify(plans)).toBeGreaterThanOrEqual(5);
    expect(plans.indexBounded, JSON.stringify(plans)).toBeGreaterThanOrEqual(1);
    // The fixture reaches every factor: ineligible guild missions, the boost, reputations, a preference.
    const ctx9 = await repo.userContext(addr(9), null);
    expect(ctx9.guilds.get(GUILD)).toBe(50);
    expect(categoryPreferences(ctx9.engagement).get(`pa${tag}`)).toBe(1);
  });

  it("nearby: same missions in the same order, exact totalCount, clusters of every mission in the radius", async () => {
    // Unfiltered queries read the cell counts (kept by triggers), filtered ones scan: both are compared below.
    expect(await discoveryReadModelRepository(pool, C).cellDrift()).toEqual([]);
    // Two paths: SQL (the cells and the KNN), and the in-memory index (small blocks, so the latitude
    // bounds skip some); both must equal the reference on every sample.
    const sql = service();
    const index = createFeedIndex(discoveryFeedSourceRepository(pool, C), { block: 8 });
    const indexed = discoveryService({
      repo: discoveryRepository(pool, C), feed: discoveryFeedRepository(pool), feedIndex: index,
      journal: { indexedTime: async () => null }, missions: { findById: async () => null }, privacy: { lens: async () => OPEN_LENS, locationSharing: async () => { throw new Error("not used"); } },
    });
    const query = fc.record({
      dLat: fc.double({ min: -0.05, max: 0.05, noNaN: true }),
      dLng: fc.double({ min: -0.07, max: 0.07, noNaN: true }),
      radius: fc.constantFrom(300, 1500, 5000, 20000),
      limit: fc.integer({ min: 1, max: 60 }),
      viewer: fc.constantFrom(undefined, addr(1), addr(9)),
      category: fc.constantFrom(undefined, `pa${tag}`),
    });
    for (const q of fc.sample(query, { numRuns: 25, seed: 11 })) {
      const lat = AREA.lat + q.dLat;
      const lng = AREA.lng + q.dLng;
      const viewer = q.viewer ? ({ evmAddress: q.viewer, id: crypto.randomUUID() } as unknown as UserRow) : null;
      const answers: unknown[] = [];
      for (const svc of [sql, indexed]) {
      const got = await svc.nearby(viewer, { latitude: lat, longitude: lng, radius: q.radius, limit: q.limit, category: q.category });
      answers.push(got);
      const inRadius = missions.filter((m) => m.state === "Open" && m.expiresAt > nowSec + 5 && (!q.category || m.category === q.category)
        && distanceMeters(lat, lng, m.lat, m.lng) <= q.radius);
      const shown = inRadius.map((m) => {
        const party = !!q.viewer && (q.viewer === m.poster || q.viewer === m.performer);
        const loc = viewLocation(m.lat, m.lng, party);
        return { m, loc, d: Math.round(distanceMeters(lat, lng, loc.latitude, loc.longitude) * 10) / 10 };
      }).sort((a, b) => a.d - b.d || (a.m.id < b.m.id ? -1 : a.m.id > b.m.id ? 1 : 0));
      expect(got.totalCount).toBe(inRadius.length);
      expect(got.totalCapped).toBe(false);
      expect(got.missions.map((m) => m.id)).toEqual(shown.slice(0, q.limit).map((s) => s.m.id));
      expect(got.missions.map((m) => m.distance)).toEqual(shown.slice(0, q.limit).map((s) => s.d));
      const ref = clusterPoints(shown.map((s) => s.loc), zoomForRadius(lat, q.radius));
      const key = (c: { count: number; latitude: number; longitude: number }) => `${c.count}:${c.latitude.toFixed(6)}:${c.longitude.toFixed(6)}`;
      expect(got.clusters.map(key).sort()).toEqual(ref.map(key).sort());
      }
      // Both paths give the same response, display names included (the index reads them with its rows).
      expect(answers[1]).toMatchObject({ missions: (answers[0] as { missions: unknown[] }).missions, totalCount: (answers[0] as { totalCount: number }).totalCount });
      // The index skipped whole blocks for the small circles (fewer missions read than it holds).
      if (q.radius <= 1500) {
        const r = await index.near({ latitude: lat, longitude: lng, radius: q.radius, nowSec: nowSec + 5, limit: q.limit });
        expect(r.visited).toBeLessThan(index.size());
      }
    }
  });

  it("map counts: the cell aggregate equals counting every mission, for circles whose edge cuts many cells", async () => {
    // Unfiltered positions() reads api.discovery_cells (whole cells inside the circle, corrected for
    // expired and own missions) and scans only the cells the edge cuts; the reference counts every row.
    const repo = discoveryRepository(pool, C);
    const circle = fc.record({
      dense: fc.boolean(),
      dLat: fc.double({ min: -0.015, max: 0.015, noNaN: true }),
      dLng: fc.double({ min: -0.02, max: 0.02, noNaN: true }),
      radius: fc.double({ min: 150, max: 2500, noNaN: true }),
      viewer: fc.constantFrom(undefined, addr(1), addr(2), addr(9)),
    });
    let cut = 0;
    for (const q of fc.sample(circle, { numRuns: 150, seed: 23 })) {
      // Around the dense district: centres within it, radii from inside a cell to past its edge.
      const [lat, lng, radius] = q.dense
        ? [AREA2.lat + q.dLat / 3, AREA2.lng + q.dLng / 3, 100 + q.radius / 2]
        : [AREA.lat + q.dLat, AREA.lng + q.dLng, q.radius];
      const got = await repo.positions({ nowSec, latitude: lat, longitude: lng, radius, viewer: q.viewer });
      const ref = new Map<string, number>();
      for (const m of missions) {
        if (m.state !== "Open" || m.expiresAt <= nowSec || distanceMeters(lat, lng, m.lat, m.lng) > radius) continue;
        const loc = viewLocation(m.lat, m.lng, !!q.viewer && (q.viewer === m.poster || q.viewer === m.performer));
        const k = `${loc.latitude.toFixed(6)}:${loc.longitude.toFixed(6)}`;
        ref.set(k, (ref.get(k) ?? 0) + 1);
      }
      // A cell holding missions on both sides of the edge: the case only the edge scan gets right.
      if (missions.some((m) => m.state === "Open" && Math.abs(distanceMeters(lat, lng, m.lat, m.lng) - radius) < 100)) cut++;
      const mine = new Map(got.map((p) => [`${p.latitude.toFixed(6)}:${p.longitude.toFixed(6)}`, p.count]));
      expect(mine, `circle ${lat},${lng} r=${radius} viewer=${q.viewer}`).toEqual(ref);
    }
    expect(cut, "circles whose edge passes near missions").toBeGreaterThan(60);
  });

  it("search: exact total and the matching missions", async () => {
    const svc = service();
    for (const k of [0, 1, 5, 7, 13]) {
      const term = `item${k}`;
      const res = await svc.search(null, { q: `${term} ${tag}`, limit: 100 });
      const ref = missions.filter((m) => m.title === `Prop ${tag} item${k}`);
      expect(res.total).toBe(ref.length);
      expect(res.results.map((r) => r.id).sort()).toEqual(ref.map((m) => m.id).sort().slice(0, 100));
    }
  });

  it("search: a one-word query's postings answer exactly as the GIN path, ties, stop words and edits included", async () => {
    const repo = discoveryRepository(pool, C);
    const readModel = discoveryReadModelRepository(pool, C);
    // Ties on (rank, details time): six missions get one details time, the newest (so they lead
    // "prop" and the tag), through the postings' update path; only the hash orders them.
    const tied = missions.filter((m) => m.title.startsWith("Prop")).slice(0, 6).map((m) => m.id);
    await pool.query(
      `UPDATE api.mission_details d SET created_at = '2099-01-02T03:04:05Z' FROM api.discovery_missions dm WHERE dm.id = ANY($1) AND dm.details_hash = d.details_hash`,
      [tied]);
    await readModel.refresh(tied);
    expect(await readModel.termsDrift()).toEqual([]);
    const words = [tag, "prop", "Props", "item5", "dense", `d3`, "the", "zzzunfound", "ünïcode", "12", ` ${tag} `];
    let compared = 0;
    for (const q of words) {
      for (const limit of [1, 3, 50]) {
        const viaTerms = await repo.search({ q, limit });
        const viaVector = await repo.search({ q, limit, via: "vector" });
        expect(viaTerms, `"${q}" limit ${limit}`).toEqual(viaVector);
        if (viaVector.total > 0) compared++;
      }
    }
    // Most words match (a stop word, an unknown word and the unicode one do not):
    expect(compared).toBeGreaterThanOrEqual(18);
    const best = await repo.search({ q: "prop", limit: 50 });
    expect(best.total).toBeGreaterThanOrEqual(N);
  });

  // Last: it changes missions (the fixture's array follows, for any test added after it).
  it("feed index: follows changes, deletions and a rebuild's marker; after each it ranks as SQL does", async () => {
    const source = discoveryFeedSourceRepository(pool, C);
    let snapshots = 0;
    let catchUps = 0;
    let checked = 0;
    const index = createFeedIndex({
      ...source,
      snapshot: (onRows) => (snapshots++, source.snapshot(onRows)),
      changesAfter: (cursor) => (catchUps++, source.changesAfter(cursor)),
      rowsAt: (ids, cursor) => (checked++, source.rowsAt(ids, cursor)),
    }, { block: 8 });
    const feed = discoveryFeedRepository(pool);
    const ctx = await discoveryRepository(pool, C).userContext(addr(9), null);
    const now = nowSec + 7;
    const query = (category: string, skip: number) => ({
      nowSec: now, category, latitude: AREA.lat, longitude: AREA.lng, viewer: addr(9), experience: experience(ctx.totalXp),
      guilds: ctx.guilds, reputation: ctx.reputation, level: ctx.level, preferences: categoryPreferences(ctx.engagement), weights: WEIGHTS, guildBoost: GUILD_BOOST, skip, take: 60,
    });
    const same = async () => {
      for (const c of [`pa${tag}`, `pb${tag}`]) for (const skip of [0, 60]) {
        const got = await index.rank(query(c, skip));
        const want = await feed.page({ ...query(c, skip), sortBy: "relevance" });
        expect(got.rows.map((r) => r.id)).toEqual(want.map((r) => r.id));
      }
    };
    await same();
    expect(snapshots).toBe(1);
    // Unchanged read model: each page is one statement (rows + "anything after the cursor?"), no catch-up.
    const before = { catchUps, checked };
    await same();
    expect({ catchUps, checked }).toEqual({ catchUps: before.catchUps, checked: before.checked + 4 });
    const open = missions.filter((m) => m.state === "Open" && m.expiresAt > now && m.category !== `pc${tag}`);
    const cancel = open.slice(0, 5);
    const richer = open.slice(5, 15);
    const gone = open.slice(15, 18);
    await pool.query(`UPDATE "${P}".missions SET state = 'Cancelled' WHERE id = ANY($1)`, [cancel.map((m) => m.id)]);
    await pool.query(`UPDATE "${P}".missions SET reward = reward * 1000 WHERE id = ANY($1)`, [richer.map((m) => m.id)]);
    await pool.query(`DELETE FROM "${P}".missions WHERE id = ANY($1)`, [gone.map((m) => m.id)]);
    await discoveryReadModelRepository(pool, C).refresh([...cancel, ...richer, ...gone].map((m) => m.id));
    for (const m of cancel) m.state = "Cancelled";
    for (const m of richer) m.reward *= 1000n;
    for (const m of gone) missions.splice(missions.indexOf(m), 1);
    expect([...cancel, ...gone, ...richer].every((m) => index.has(m.id))).toBe(true); // not synced yet
    const beforeChange = catchUps;
    await same();
    expect(snapshots, "followed without a reload").toBe(1);
    expect(catchUps, "the change was seen and caught up").toBeGreaterThan(beforeChange);
    expect([...cancel, ...gone].filter((m) => index.has(m.id))).toEqual([]);
    expect(richer.every((m) => index.has(m.id))).toBe(true);
    // The rebuild's marker: the next ranking reloads the whole index.
    await pool.query(`INSERT INTO api.discovery_removed (mission_id) VALUES (NULL)`);
    await same();
    expect(snapshots).toBe(2);
  });
});
