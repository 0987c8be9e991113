// Reliability-load diagnosis aid (not part of `npm run bench`): node CPU per request of the reliability
// load's read kinds (script/reliability/load-child.ts: GET /missions/:id, /feed, /missions/nearby,
// /feed/search), signed in (a real SIWE sign-in, Bearer token) and anonymous, through the whole API app
// in this process (app.request(): the node-server layer is left out), and the SQL queries each sends.
// CPU time, not wall time: it stays meaningful on a busy machine. PROFILE=<kind> adds a CPU profile.
//   npx tsx script/bench/lib/read-mix-cpu.ts [missions=20000] [requests=2000]
import pg from "pg";
import { privateKeyToAccount } from "viem/accounts";
import { createServer } from "../../../api/app.ts";
import { ensurePostgres } from "../../lib/postgres.ts";
import { getDataset } from "./dataset.ts";
import { hottest, profileOf } from "./mission-read-profile.ts";

const NODE_ENV = { incoming: { socket: { remoteAddress: "127.0.0.1", remotePort: 40000, remoteFamily: "IPv4" }, headers: {} } };
type App = { request(path: string, init?: RequestInit, env?: unknown): Response | Promise<Response> };
// Anvil's well-known dev keys (local use only).
const KEYS = [
  "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
  "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
  "0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a",
] as const;

async function cpuPerRequest(app: App, paths: string[], token: string | undefined, n: number, q: { count: number }) {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const batch = async (count: number) => {
    let i = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (i < count) {
          const p = paths[i++ % paths.length]!;
          const res = await app.request(p, { headers }, NODE_ENV);
          if (res.status !== 200) throw new Error(`${p}: ${res.status} ${await res.text()}`);
          await res.arrayBuffer();
        }
      }),
    );
  };
  await batch(200);
  const q0 = q.count;
  const c0 = process.cpuUsage();
  await batch(n);
  const c = process.cpuUsage(c0);
  if (process.env.SHOW_SYS) console.log(`  user ${(c.user / n).toFixed(0)} sys ${(c.system / n).toFixed(0)}`);
  return { us: (c.user + c.system) / n, queries: (q.count - q0) / n };
}

async function main() {
  const N = Number(process.argv[2] ?? 20000);
  const n = Number(process.argv[3] ?? 2000);
  const pgh = await ensurePostgres({ ephemeral: true, log: () => {} });
  try {
    const ds = await getDataset({ smoke: true, missions: N, scratchDir: "/tmp", shared: new Map(), log: () => {}, postgresUrl: async () => pgh.url });
    const api = await createServer({
      overrides: {
        NODE_ENV: "production", LOG_LEVEL: "warn", DATABASE_URL: ds.databaseUrl, CHAIN_SCHEMA: ds.chainSchema, CHAIN_ID: "31337",
        DEPLOYMENT_FILE: "/nonexistent/deployment.json", INDEXER_URL: "http://127.0.0.1:9", RPC_URL: "http://127.0.0.1:9",
        JWT_SECRET: "read-mix-cpu-secret-0123456789abcdef", MIGRATE_ON_START: "false", REACTORS_ENABLED: "false",
        KEEPER_INTERVAL_MS: "0", RATE_LIMIT_ANON_PER_MIN: "1000000", RATE_LIMIT_USER_PER_MIN: "1000000",
      },
    });
    // Count the API pool's queries.
    const q = { count: 0 };
    const pool = api.deps.database.pool as unknown as pg.Pool;
    const orig = pool.query.bind(pool) as (...a: unknown[]) => unknown;
    const texts: string[] = [];
    (pool as unknown as { query: unknown }).query = (...a: unknown[]) => {
      q.count++;
      if (process.env.SHOW_SQL) texts.push(typeof a[0] === "string" ? a[0] : String((a[0] as { name?: string; text?: string }).name ?? (a[0] as { text?: string }).text));
      return orig(...a);
    };
    try {
      await api.deps.services.discovery.warmUp();
      const tokens: string[] = [];
      for (const key of KEYS) {
        const account = privateKeyToAccount(key);
        const { message } = await api.deps.services.auth.createMessage(account.address, "127.0.0.1");
        const signature = await account.signMessage({ message });
        tokens.push((await api.deps.services.auth.verify(account.address, signature)).token);
      }
      const c = ds.cities[0]!;
      const ids = await ds.missionIds(2000);
      const terms = ["delivery", "garden", "repair", "help", "piano", "bike", "paint", "parcel"];
      const kinds: Record<string, string[]> = {
        "GET /missions/:id": ids.map((id) => `/missions/${id}`),
        "GET /feed": [`/feed?latitude=${c.lat}&longitude=${c.lng}&take=20`],
        "GET /missions/nearby": [`/missions/nearby?latitude=${c.lat}&longitude=${c.lng}&radius=5000&limit=50`],
        "GET /feed/search": terms.map((t) => `/feed/search?q=${t}&limit=20`),
      };
      for (const [kind, paths] of Object.entries(kinds)) {
        if (process.env.SHOW_SQL) {
          texts.length = 0;
          const res = await api.app.request(paths[0]!, { headers: { authorization: `Bearer ${tokens[0]}` } }, NODE_ENV);
          await res.arrayBuffer();
          console.log(`${kind} (signed): ${texts.length} queries\n  ${texts.map((t) => t.replace(/\s+/g, " ").slice(0, 160)).join("\n  ")}`);
        }
        const anon = [], signed = [];
        for (let r = 0; r < 3; r++) {
          if (kind !== "GET /feed") anon.push(await cpuPerRequest(api.app, paths, undefined, n, q)); // the feed needs a user
          signed.push(await cpuPerRequest(api.app, paths, tokens[r % tokens.length], n, q));
        }
        const min = (xs: { us: number }[]) => (xs.length ? Math.min(...xs.map((x) => x.us)).toFixed(0) : "-");
        console.log(`${kind.padEnd(20)} anon ${min(anon).padStart(5)} µs (${anon[0]?.queries.toFixed(2) ?? "-"} q)   signed ${min(signed).padStart(5)} µs (${signed[0]!.queries.toFixed(2)} q)`);
        if (process.env.PROFILE === kind) {
          const profile = await profileOf(() => cpuPerRequest(api.app, paths, tokens[0], n * 2, q), 100);
          console.log(hottest(profile, 1e6, 50));
        }
      }
    } finally {
      await api.close();
    }
  } finally {
    await pgh.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
