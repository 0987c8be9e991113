// The feed's formula has one home, api/services/discovery/feed-scoring.ts (with geo.ts for distances);
// the SQL that repeats it must agree with it. Random inputs go through the SQL expressions the feed's
// repository ranks with (api/repositories/discovery-feed.sql.ts), evaluated by the real PostgreSQL,
// and through the TypeScript functions; every factor and the rounded final score must match. The
// migrations' copies are checked too: api.geo_ecef (the read model's points, migration 0013) against
// geo.ts ecef(), and the static score keys of migration 0019 (feed_k1 / feed_k2, dropped by 0020).
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "./lane.ts";
import { createDatabase } from "../../api/db/client.ts";
import { MIGRATIONS_FOLDER, runMigrations } from "../../api/db/migrate.ts";
import {
  distanceScoreSql, finalScoreSql, posterScoreSql, rewardScoreSql, shownDistanceSql, urgencyScoreSql, xpMatchScoreSql,
} from "../../api/repositories/discovery-feed.sql.ts";
import {
  combine, distanceScore, experience, GUILD_BOOST, posterReputationScore, rewardScore, urgencyScore, WEIGHTS, xpMatchScore,
} from "../../api/services/discovery/feed-scoring.ts";
import { distanceMeters, ecef } from "../../api/services/discovery/geo.ts";

let pool: pg.Pool;
const scratch = `formula_${Math.random().toString(36).slice(2, 8)}`;

beforeAll(async () => {
  const migrations = createDatabase(inject("databaseUrl"), 2);
  await runMigrations(migrations).finally(() => migrations.close()); // this file starts no API
  pool = new pg.Pool({ connectionString: inject("databaseUrl"), max: 2 });
});
afterAll(async () => {
  await pool?.query(`DROP SCHEMA IF EXISTS "${scratch}" CASCADE`);
  await pool?.end();
});

/** A new seed every run (more inputs over time), in every failure message to replay it. */
const SEED = Date.now() % 2 ** 31;
const NOW = 1_800_000_000;
/**
 * The unrounded factors may differ in the last bits: PostgreSQL's log10, sin, cos and asin come from
 * the C library, JavaScript's from V8. The rounded final score and shown distance must be equal.
 */
const ULPS = 1e-12;

/**
 * A decimal in [min, max] with 9 decimals: no subnormal doubles, which PostgreSQL's float8 arithmetic
 * refuses ("value out of range: underflow") where JavaScript rounds them to 0; no input has them.
 */
const decimal = (min: number, max: number) => fc.integer({ min: Math.round(min * 1e9), max: Math.round(max * 1e9) }).map((i) => i / 1e9);
const point = fc.record({ lat: decimal(-89.9, 89.9), lng: decimal(-180, 180) });

/** One mission and one reader: every input of the feed's score. */
const sample = fc.record({
  reward: fc.oneof(
    fc.bigInt({ min: 0n, max: 2_000_000_000n }), fc.bigInt({ min: 0n, max: 10n ** 15n }),
    fc.constantFrom(0n, 1n, 999_999_999n, 1_000_000_000n, 1_000_000_001n),
  ),
  expiresIn: fc.oneof(fc.integer({ min: -86_400, max: 30 * 86_400 }), fc.constantFrom(0, 604_799, 604_800, 604_801)),
  ratingCount: fc.nat(2_000),
  ratingAvg: decimal(1, 5),
  userXp: fc.oneof(fc.nat(5_000), fc.constantFrom(0, 3275)),
  reader: point,
  // Near the reader (across the 50-km horizon), anywhere, or no location.
  offset: fc.oneof(
    fc.record({ dLat: decimal(-0.6, 0.6), dLng: decimal(-0.6, 0.6) }),
    fc.record({ dLat: decimal(-90, 90), dLng: decimal(-360, 360) }),
    fc.constant(null),
  ),
  preference: fc.oneof(decimal(0, 1), fc.constant(0)),
  member: fc.boolean(),
});

interface Input {
  reward: bigint; expiresAt: number; ratingSum: number; ratingCount: number; userXp: number;
  reader: { lat: number; lng: number }; mission: { lat: number; lng: number } | null; preference: number; boost: number;
}

function inputs(n: number): Input[] {
  return fc.sample(sample, { numRuns: n, seed: SEED }).map((s) => ({
    reward: s.reward, expiresAt: NOW + s.expiresIn, ratingCount: s.ratingCount, ratingSum: Math.round(s.ratingAvg * s.ratingCount),
    userXp: s.userXp, reader: s.reader, preference: s.preference, boost: s.member ? GUILD_BOOST : 1,
    mission: s.offset && {
      lat: Math.max(-90, Math.min(90, s.reader.lat + s.offset.dLat)),
      lng: ((((s.reader.lng + s.offset.dLng + 180) % 360) + 360) % 360) - 180,
    },
  }));
}

/** What feed-scoring.ts says of one input. */
function reference(x: Input) {
  const distance = x.mission ? Math.round(distanceMeters(x.reader.lat, x.reader.lng, x.mission.lat, x.mission.lng) * 10) / 10 : null;
  const R = rewardScore(x.reward);
  const f = {
    eligibility: true, rewardScore: R, urgencyScore: urgencyScore(x.expiresAt, NOW), distanceScore: distanceScore(distance),
    xpMatchScore: xpMatchScore(x.userXp, R), posterReputationScore: posterReputationScore(x.ratingSum, x.ratingCount),
    categoryPreferenceScore: x.preference, guildBoost: x.boost,
  };
  return { distance, f, finalScore: combine(f).finalScore };
}

describe("the feed's formula: SQL = feed-scoring.ts", () => {
  it("every factor, the shown distance and the final score agree on random inputs", async () => {
    const xs = inputs(3_000);
    const p = (i: number) => `$${i}`;
    const weights = {
      reward: `${p(12)}::float8`, urgency: `${p(13)}::float8`, distance: `${p(14)}::float8`, xpMatch: `${p(15)}::float8`,
      posterReputation: `${p(16)}::float8`, categoryPreference: `${p(17)}::float8`,
    };
    const factors = {
      reward: "f.reward_score", urgency: "f.urgency_score", distance: "f.distance_score", xpMatch: "f.xp_match_score",
      posterReputation: "f.poster_score", categoryPreference: "f.pref",
    };
    // Nested as the repository nests them (discovery-feed.repository.ts): inputs, factors, final score.
    const { rows } = await pool.query<{
      reward_score: number; urgency_score: number; distance: number | null; distance_score: number; xp_match_score: number;
      poster_score: number; final_score: number;
    }>(
      `SELECT f.*, ${finalScoreSql(weights, factors, "f.boost")} AS final_score FROM (
         SELECT c.*, ${distanceScoreSql("c.distance")} AS distance_score,
                ${xpMatchScoreSql("c.experience", "c.reward_score")} AS xp_match_score FROM (
           SELECT x.*,
                  CASE WHEN x.mlat IS NOT NULL THEN ${shownDistanceSql("x.qlat", "x.qlng", "x.mlat", "x.mlng")} END AS distance,
                  ${rewardScoreSql("x.reward")} AS reward_score,
                  ${urgencyScoreSql("x.expires_at", `${p(18)}::bigint`)} AS urgency_score,
                  ${posterScoreSql("x.rating_sum", "x.rating_count")} AS poster_score
             FROM unnest($1::numeric[], $2::bigint[], $3::int[], $4::int[], $5::float8[], $6::float8[], $7::float8[], $8::float8[],
                         $9::float8[], $10::float8[], $11::float8[])
                  WITH ORDINALITY AS x(reward, expires_at, rating_sum, rating_count, qlat, qlng, mlat, mlng, experience, pref, boost, n)) c) f
       ORDER BY f.n`,
      [
        xs.map((x) => x.reward.toString()), xs.map((x) => x.expiresAt), xs.map((x) => x.ratingSum), xs.map((x) => x.ratingCount),
        xs.map((x) => x.reader.lat), xs.map((x) => x.reader.lng), xs.map((x) => x.mission?.lat ?? null), xs.map((x) => x.mission?.lng ?? null),
        xs.map((x) => experience(x.userXp)), xs.map((x) => x.preference), xs.map((x) => x.boost),
        WEIGHTS.reward, WEIGHTS.urgency, WEIGHTS.distance, WEIGHTS.xpMatch, WEIGHTS.posterReputation, WEIGHTS.categoryPreference, NOW,
      ],
    );
    expect(rows).toHaveLength(xs.length);
    let far = 0, near = 0, none = 0;
    xs.forEach((x, i) => {
      const got = rows[i]!;
      const want = reference(x);
      const at = `seed ${SEED}, input ${JSON.stringify(x, (_, v) => (typeof v === "bigint" ? v.toString() : v))}`;
      expect(got.distance, `shown distance, ${at}`).toBe(want.distance);
      for (const [k, v] of [
        ["reward_score", want.f.rewardScore], ["urgency_score", want.f.urgencyScore], ["distance_score", want.f.distanceScore],
        ["xp_match_score", want.f.xpMatchScore], ["poster_score", want.f.posterReputationScore],
      ] as const) {
        expect(Math.abs(got[k] - v), `${k}: SQL ${got[k]}, TS ${v}; ${at}`).toBeLessThanOrEqual(ULPS);
      }
      expect(got.final_score, `final score, ${at}`).toBe(want.finalScore);
      if (want.distance === null) none++;
      else if (want.distance < 50_000) near++;
      else far++;
    });
    // The inputs reach every branch of the distance term.
    expect(Math.min(far, near, none), `far ${far}, near ${near}, none ${none}`).toBeGreaterThan(100);
  });

  it("api.geo_ecef (migration 0013) places points where geo.ts ecef() does", async () => {
    const pts = fc.sample(point, { numRuns: 1_000, seed: SEED });
    const { rows } = await pool.query<{ x: number; y: number; z: number }>(
      `SELECT cube_ll_coord(c, 1) AS x, cube_ll_coord(c, 2) AS y, cube_ll_coord(c, 3) AS z
         FROM unnest($1::float8[], $2::float8[]) WITH ORDINALITY AS p(lat, lng, n), LATERAL api.geo_ecef(p.lat, p.lng) c ORDER BY p.n`,
      [pts.map((q) => q.lat), pts.map((q) => q.lng)],
    );
    pts.forEach((q, i) => {
      const [x, y, z] = ecef(q.lat, q.lng);
      const got = rows[i]!;
      // Metres on a 6,371-km sphere: 1 µm is a few ulps; a radius off by a metre moves points by up to a metre.
      expect(Math.max(Math.abs(got.x - x), Math.abs(got.y - y), Math.abs(got.z - z)), `seed ${SEED}, ${JSON.stringify(q)}`).toBeLessThan(1e-6);
    });
  });

  it("the static score keys of migration 0019 = WEIGHTS over feed-scoring.ts (and 0020 dropped them)", async () => {
    // No live function repeats the formula: 0020 dropped 0019's feed_k1 / feed_k2 with their indexes.
    const live = await pool.query<{ k1: string | null; k2: string | null }>(
      `SELECT to_regprocedure('api.feed_k1(numeric, integer, integer)')::text AS k1,
              to_regprocedure('api.feed_k2(numeric, integer, integer, bigint)')::text AS k2`,
    );
    expect(live.rows[0]).toEqual({ k1: null, k2: null });
    // A database migrated to 0019 only had them: run those definitions in a scratch schema and compare.
    const text = fs.readFileSync(path.join(MIGRATIONS_FOLDER, "0019_discovery_feed.sql"), "utf8");
    const fns = text.split("--> statement-breakpoint").filter((s) => /CREATE OR REPLACE FUNCTION "api"\."feed_k[12]"/.test(s));
    expect(fns).toHaveLength(2);
    await pool.query(`CREATE SCHEMA "${scratch}"`);
    for (const f of fns) await pool.query(f.replaceAll(`"api"."feed_k`, `"${scratch}"."feed_k`));
    const xs = inputs(2_000);
    const { rows } = await pool.query<{ k1: number; k2: number }>(
      `SELECT "${scratch}".feed_k1(r, s, c) AS k1, "${scratch}".feed_k2(r, s, c, e) AS k2
         FROM unnest($1::numeric[], $2::int[], $3::int[], $4::bigint[]) WITH ORDINALITY AS x(r, s, c, e, n) ORDER BY x.n`,
      [xs.map((x) => x.reward.toString()), xs.map((x) => x.ratingSum), xs.map((x) => x.ratingCount), xs.map((x) => x.expiresAt)],
    );
    xs.forEach((x, i) => {
      const k1 = WEIGHTS.reward * rewardScore(x.reward) + WEIGHTS.posterReputation * posterReputationScore(x.ratingSum, x.ratingCount);
      // k1 + the urgency term = max(k1, k2 + WEIGHTS.urgency · (1 + now / 604800)) for any now.
      const k2 = k1 - (WEIGHTS.urgency * x.expiresAt) / 604800;
      const at = `seed ${SEED}, input ${i}`;
      expect(Math.abs(rows[i]!.k1 - k1), `feed_k1, ${at}`).toBeLessThanOrEqual(ULPS);
      expect(Math.abs(rows[i]!.k2 - k2), `feed_k2, ${at}`).toBeLessThanOrEqual(1e-9); // k2 is about -600: its ulp is ~1e-13
    });
  });
});
