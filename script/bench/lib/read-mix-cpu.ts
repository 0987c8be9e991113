// Reliability-load diagnosis aid (not part of `npm run bench`): node CPU per request of the reliability
// load's read kinds (script/reliability/load-child.ts: GET /missions/:id, /feed, /missions/nearby,
// /feed/search), signed in (a real SIWE sign-in, Bearer token) and anonymous, through the whole API app
// in this process (app.request(): the node-server layer is left out), and the SQL queries each sends.
// CPU time, not wall time: it stays meaningful on a busy machine. PROFILE=<kind> adds a CPU profile.
//   npx tsx script/bench/lib/read-mix-cpu.ts [missions=20000] [requests=2000]
import { privateKeyToAccount } from "viem/accounts";
import { aidApi, countQueries, cpuPer, getter, NODE_ENV, runAid, type App } from "./aid.ts";
import { hottest, profileOf } from "./mission-read-profile.ts";

// Anvil's well-known dev keys (local use only).
const KEYS = [
  "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
  "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
  "0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a",
] as const;

async function cpuPerRequest(app: App, paths: string[], token: string | undefined, n: number, q: { count: number }) {
  const init = token ? { headers: { authorization: `Bearer ${token}` } } : undefined;
  const q0 = q.count;
  const c = await cpuPer(getter("api", app, paths, { init, env: NODE_ENV }), n, { warmUp: 200, concurrency: 8 });
  if (process.env.SHOW_SYS) console.log(`  user ${c.user.toFixed(0)} sys ${c.system.toFixed(0)}`);
  return { us: c.us, queries: (q.count - q0) / (n + 200) };
}

runAid(Number(process.argv[2] ?? 20000), async (ds) => {
  const n = Number(process.argv[3] ?? 2000);
  const api = await aidApi(ds);
  // Count the API pool's queries.
  const texts: string[] = [];
  const q = countQueries(api.deps.database.pool as unknown as { query: unknown }, process.env.SHOW_SQL ? texts : undefined);
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
});
