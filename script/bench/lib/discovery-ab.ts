// Discovery A/B aid (not part of `npm run bench`): two builds of the API in this process over one
// dataset, the checkout at OLD (e.g. `git archive <commit> | tar -x -C /tmp/old` with a node_modules
// link) and this one. First the same map requests go to both and their bodies must be byte-identical
// (anonymous over HTTP through app.request(); signed-in viewers, whose own missions are shown at their
// exact points, through the service); then node CPU per request of GET /missions/nearby in rounds that
// alternate old and new, so that a busy machine slows both alike. CPU time, not wall time.
//   OLD=/tmp/old npx tsx script/bench/lib/discovery-ab.ts [missions=100000] [requests=1000] [rounds=6] [radii=500,5000]
// AB_DATABASE_URL (a database already holding a bench dataset, schema `chain`) skips the load;
// PROFILE=old|new adds a CPU profile of that build on the first radius.
import path from "node:path";
import pg from "pg";
import { createServer as createNew } from "../../../api/app.ts";
import type { UserRow } from "../../../api/repositories/users.repository.ts";
import { ensurePostgres } from "../../lib/postgres.ts";
import { CITIES } from "./cities.ts";
import { CHAIN_SCHEMA, getDataset } from "./dataset.ts";
import { hottest, profileOf } from "./mission-read-profile.ts";

const NODE_ENV = { incoming: { socket: { remoteAddress: "127.0.0.1", remotePort: 40000, remoteFamily: "IPv4" }, headers: {} } };
type Api = Awaited<ReturnType<typeof createNew>>;
type Nearby = Parameters<Api["deps"]["services"]["discovery"]["nearby"]>[1];

const overrides = (databaseUrl: string) => ({
  NODE_ENV: "production", LOG_LEVEL: "warn", DATABASE_URL: databaseUrl, CHAIN_SCHEMA, CHAIN_ID: "31337",
  DEPLOYMENT_FILE: "/nonexistent/deployment.json", INDEXER_URL: "http://127.0.0.1:9", RPC_URL: "http://127.0.0.1:9",
  JWT_SECRET: "discovery-ab-secret-0123456789abcdef", MIGRATE_ON_START: "false", REACTORS_ENABLED: "false",
  KEEPER_INTERVAL_MS: "0", RATE_LIMIT_ANON_PER_MIN: "1000000",
});

/** A deterministic generator (the queries are the same every run). */
function lcg(seed: number) {
  return () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
}

/** The map queries compared: every city, centres around it, four radii, limits, filters. */
function queries(count: number): Nearby[] {
  const rnd = lcg(4242);
  const out: Nearby[] = [];
  const radii = [300, 500, 2000, 5000, 12000, 50000];
  for (let k = 0; out.length < count; k++) {
    const c = CITIES[k % CITIES.length]!;
    const spread = k % 3 === 0 ? 0 : 0.15;
    const q: Nearby = {
      latitude: Math.round((c.lat + (rnd() - 0.5) * spread) * 1e6) / 1e6,
      longitude: Math.round((c.lng + (rnd() - 0.5) * spread) * 1e6) / 1e6,
      radius: radii[Math.floor(rnd() * radii.length)]!,
      limit: [1, 20, 50, 100][Math.floor(rnd() * 4)]!,
    };
    if (rnd() < 0.15) q.category = ["delivery", "pets", "tech", "garden"][Math.floor(rnd() * 4)]!;
    out.push(q);
  }
  return out;
}

const pathOf = (q: Nearby) =>
  `/missions/nearby?latitude=${q.latitude}&longitude=${q.longitude}&radius=${q.radius}&limit=${q.limit}${q.category ? `&category=${q.category}` : ""}`;

async function body(api: Api, p: string): Promise<string> {
  const res = await api.app.request(p, undefined, NODE_ENV);
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${p}: ${res.status} ${text}`);
  return text;
}

/** µs of node CPU per request over `n` requests, 4 at a time, after a short warm-up. */
async function cpuPerRequest(api: Api, paths: string[], n: number): Promise<number> {
  const batch = async (count: number) => {
    let i = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (i < count) await body(api, paths[i++ % paths.length]!);
      }),
    );
  };
  await batch(100);
  const c0 = process.cpuUsage();
  await batch(n);
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / n;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const oldDir = process.env.OLD;
  if (!oldDir) throw new Error("OLD=<directory of the other checkout> is required");
  const N = Number(process.argv[2] ?? 100000);
  const n = Number(process.argv[3] ?? 1000);
  const rounds = Number(process.argv[4] ?? 6);
  const radii = (process.argv[5] ?? "500,5000").split(",").map(Number);
  const pgh = process.env.AB_DATABASE_URL ? null : await ensurePostgres({ ephemeral: true, log: () => {} });
  try {
    const databaseUrl = process.env.AB_DATABASE_URL
      ?? (await getDataset({ smoke: true, missions: N, scratchDir: "/tmp", shared: new Map(), log: () => {}, postgresUrl: async () => pgh!.url })).databaseUrl;
    const { createServer: createOld } = (await import(path.resolve(oldDir, "api/app.ts"))) as { createServer: typeof createNew };
    const apis = { old: await createOld({ overrides: overrides(databaseUrl) }), new: await createNew({ overrides: overrides(databaseUrl) }) };
    try {
      await Promise.all([apis.old.deps.services.discovery.warmUp(), apis.new.deps.services.discovery.warmUp()]);
      // Signed-in viewers: the posters with the most open missions, each at their missions' city.
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      const posters = await client.query<{ poster: string; lat: number; lng: number }>(
        `SELECT poster, avg(latitude) AS lat, avg(longitude) AS lng FROM api.discovery_missions
          WHERE state = 'Open' AND latitude IS NOT NULL GROUP BY poster ORDER BY count(*) DESC, poster LIMIT 12`,
      );
      await client.end();
      const viewers: UserRow[] = [];
      for (const p of posters.rows) {
        const u = await apis.new.deps.repos.users.findByAddress(p.poster);
        if (u) viewers.push(u);
      }

      // 1. Byte-identical bodies: anonymous over HTTP, then each viewer through the service.
      const qs = queries(Number(process.env.AB_QUERIES ?? 2400));
      let compared = 0, missions = 0, clusters = 0;
      for (const q of qs) {
        const p = pathOf(q);
        const [a, b] = [await body(apis.old, p), await body(apis.new, p)];
        if (a !== b) throw new Error(`bodies differ for ${p}\nold ${a.slice(0, 2000)}\nnew ${b.slice(0, 2000)}`);
        const parsed = JSON.parse(b) as { missions: unknown[]; clusters: unknown[] };
        missions += parsed.missions.length;
        clusters += parsed.clusters.length;
        compared++;
      }
      const rnd = lcg(99);
      for (const [k, v] of viewers.entries()) {
        const at = posters.rows.find((r) => r.poster === v.evmAddress)!;
        for (let j = 0; j < 40; j++) {
          const q: Nearby = {
            latitude: Number(at.lat) + (rnd() - 0.5) * 0.1, longitude: Number(at.lng) + (rnd() - 0.5) * 0.1,
            radius: [500, 5000, 50000][j % 3]!, limit: [20, 50][k % 2]!, ...(j % 7 === 0 ? { category: "pets" } : {}),
          };
          const [a, b] = [
            JSON.stringify(await apis.old.deps.services.discovery.nearby(v, q)),
            JSON.stringify(await apis.new.deps.services.discovery.nearby(v, q)),
          ];
          if (a !== b) throw new Error(`results differ for viewer ${v.evmAddress} ${JSON.stringify(q)}\nold ${a.slice(0, 2000)}\nnew ${b.slice(0, 2000)}`);
          compared++;
        }
      }
      console.log(`identical: ${compared} responses (${qs.length} anonymous over HTTP, ${compared - qs.length} of ${viewers.length} signed-in viewers), ${missions} markers, ${clusters} clusters`);

      // 2. CPU per request, rounds alternating old and new (which goes first alternates too).
      const city = CITIES[0]!;
      // Both builds optimised first (without it the first rounds measure the compiler and drift down).
      for (const k of ["old", "new"] as const) {
        for (const radius of radii) await cpuPerRequest(apis[k], [pathOf({ latitude: city.lat, longitude: city.lng, radius, limit: 50 })], 3 * n);
      }
      for (const radius of radii) {
        const paths = [pathOf({ latitude: city.lat, longitude: city.lng, radius, limit: 50 })];
        const us: Record<"old" | "new", number[]> = { old: [], new: [] };
        for (let r = 0; r < rounds; r++) {
          for (const k of (r % 2 === 0 ? ["old", "new"] : ["new", "old"]) as ("old" | "new")[]) us[k].push(await cpuPerRequest(apis[k], paths, n));
        }
        const mo = median(us.old), mn = median(us.new);
        console.log(
          `nearby ${radius} m, ${CITIES[0]!.name}: old ${us.old.map((x) => x.toFixed(0)).join(" ")} µs (median ${mo.toFixed(0)}); ` +
            `new ${us.new.map((x) => x.toFixed(0)).join(" ")} µs (median ${mn.toFixed(0)}); new/old ${(mn / mo).toFixed(3)}`,
        );
        const which = process.env.PROFILE as "old" | "new" | undefined;
        if (which && apis[which] && radius === radii[0]) console.log(hottest(await profileOf(() => cpuPerRequest(apis[which], paths, n * 3), 100), 1e6, 40));
      }
    } finally {
      await apis.old.close();
      await apis.new.close();
    }
  } finally {
    await pgh?.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
