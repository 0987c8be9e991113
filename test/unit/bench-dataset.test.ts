// The benchmark dataset's pure parts: the city clusters and the chain DDL derived from the Ponder
// schema (so the bench tables cannot drift from what the indexer creates and the API reads).
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chainTables, chainViews } from "../../script/bench/lib/chain-ddl.ts";
import { CITIES, clusterPoint, cumulativeWeights, distanceMeters, sqlArray } from "../../script/bench/lib/cities.ts";

const root = path.resolve(import.meta.dirname, "../..");

describe("bench cities", () => {
  it("are about 20 distinct real places with positive weights", () => {
    expect(CITIES.length).toBeGreaterThanOrEqual(18);
    expect(CITIES.length).toBeLessThanOrEqual(22);
    expect(new Set(CITIES.map((c) => c.name)).size).toBe(CITIES.length);
    for (const c of CITIES) {
      expect(Math.abs(c.lat)).toBeLessThan(70);
      expect(Math.abs(c.lng)).toBeLessThanOrEqual(180);
      expect(c.weight).toBeGreaterThan(0);
      expect(c.downtown).toBeGreaterThanOrEqual(0);
      expect(c.downtown).toBeLessThan(1);
      expect(c.downtownKm).toBeLessThan(c.spreadKm);
    }
    // Some dense downtowns, not all.
    const dense = CITIES.filter((c) => c.downtown >= 0.3 && c.downtownKm <= 1);
    expect(dense.length).toBeGreaterThanOrEqual(3);
    expect(dense.length).toBeLessThan(CITIES.length);
  });

  it("cumulative weights rise to exactly 1 and match the weights", () => {
    const cum = cumulativeWeights();
    expect(cum).toHaveLength(CITIES.length);
    expect(cum.at(-1)).toBe(1);
    const total = CITIES.reduce((s, c) => s + c.weight, 0);
    cum.forEach((v, i) => {
      const prev = i === 0 ? 0 : cum[i - 1]!;
      expect(v).toBeGreaterThan(prev);
      expect(v - prev).toBeCloseTo(CITIES[i]!.weight / total, 10);
    });
  });

  it("a draw of z standard deviations lands z·sigma km from the center", () => {
    for (const c of CITIES) {
      expect(clusterPoint(c, false, 0, 0)).toEqual({ lat: c.lat, lng: c.lng });
      expect(distanceMeters(c, clusterPoint(c, false, 1, 0)) / 1000).toBeCloseTo(c.spreadKm, 1);
      expect(distanceMeters(c, clusterPoint(c, false, 0, 1)) / 1000).toBeCloseTo(c.spreadKm, 1);
      expect(distanceMeters(c, clusterPoint(c, true, 1, 0)) / 1000).toBeCloseTo(c.downtownKm, 1);
    }
  });

  it("points stay within 3 sigma (per axis) of their city, downtowns tighter", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: CITIES.length - 1 }),
        fc.boolean(),
        fc.double({ min: -3, max: 3, noNaN: true }),
        fc.double({ min: -3, max: 3, noNaN: true }),
        (k, downtown, z1, z2) => {
          const city = CITIES[k]!;
          const sigma = downtown ? city.downtownKm : city.spreadKm;
          const d = distanceMeters(city, clusterPoint(city, downtown, z1, z2));
          return d <= Math.hypot(z1, z2) * sigma * 1000 * 1.01 + 1;
        },
      ),
    );
  });

  it("renders SQL float arrays that can be subscripted", () => {
    expect(sqlArray([1, 2.5])).toBe("(ARRAY[1,2.5]::float8[])");
  });
});

describe("bench chain DDL (from indexer/ponder.schema.ts)", () => {
  const tables = chainTables("bench_ponder");
  const byName = new Map(tables.map((t) => [t.name, t]));

  it("has every Ponder table with a primary key, and the missions table's columns and indexes", () => {
    for (const name of ["missions", "guilds", "guild_members", "board_entries", "ratings", "user_stats", "settlements", "journal"]) {
      expect(byName.has(name), name).toBe(true);
      expect(byName.get(name)!.constraints[0]).toMatch(/ADD PRIMARY KEY/);
    }
    const m = byName.get("missions")!;
    const col = (n: string) => m.columns.find((c) => c.name === n);
    expect(col("id")).toMatchObject({ type: "text", primaryKey: true });
    expect(col("reward")).toMatchObject({ type: "numeric(78)", notNull: true });
    expect(col("performer")).toMatchObject({ type: "text", notNull: false });
    expect(m.create).toMatch(/^CREATE TABLE "bench_ponder"\."missions" \(/);
    // onChainIdx, posterIdx, performerIdx, guildIdx, stateIdx, createdIdx, stateRewardIdx, stateExpiryIdx
    expect(m.indexes).toHaveLength(8);
    expect(m.indexes).toContain(
      `CREATE INDEX "missions_6_state_reward_idx" ON "bench_ponder"."missions" ("state", "reward")`,
    );
  });

  it("has every missions column the API's repositories read (m.<column>)", () => {
    const columns = new Set(byName.get("missions")!.columns.map((c) => c.name));
    const files = ["api/repositories/missions.repository.ts", "api/repositories/discovery-read-model.repository.ts"];
    const used = new Set<string>();
    for (const f of files) {
      const src = fs.readFileSync(path.join(root, f), "utf8");
      for (const match of src.matchAll(/\bm\.([a-z_]+)\b/g)) used.add(match[1]!);
    }
    expect(used.size).toBeGreaterThan(10);
    expect([...used].filter((c) => !columns.has(c))).toEqual([]);
  });

  it("exposes each table as a view in the views schema", () => {
    const views = chainViews("bench_ponder", "chain");
    expect(views).toHaveLength(tables.length);
    expect(views).toContain(`CREATE VIEW "chain"."missions" AS SELECT * FROM "bench_ponder"."missions"`);
  });
});
