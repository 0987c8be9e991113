// p50/p99 of GET /feed, /feed/search and /missions/nearby on a seeded database (not a test).
//   npx tsx script/measure-discovery.ts [missions=100000] [requests=200]
// Seeds an embedded Postgres (or DATABASE_URL): API migrations, a stand-in chain schema with the
// indexer's columns and indexes that the discovery queries read, N missions with details.
import { performance } from "node:perf_hooks";
import pg from "pg";
import { privateKeyToAccount } from "viem/accounts";
import { createServer } from "../api/app.ts";
import { ensurePostgres } from "./lib/postgres.ts";

const N = Number(process.argv[2] ?? 100_000);
const R = Number(process.argv[3] ?? 200);
const ONLY = process.argv[4]; // substring of a case name
const S = "chain_measure";

async function seed(pool: pg.Pool) {
  await pool.query(`DROP SCHEMA IF EXISTS ${S} CASCADE; CREATE SCHEMA ${S};
    CREATE TABLE ${S}.missions (id text PRIMARY KEY, on_chain_id numeric(78) NOT NULL, escrow_address text NOT NULL, poster text NOT NULL,
      performer text, guild_on_chain_id int NOT NULL, guild_uuid text, reward numeric(78) NOT NULL, ddr_amount numeric(78) NOT NULL, state text NOT NULL,
      details_hash text NOT NULL, proof_hash text, refund_amount numeric(78), released numeric(78) NOT NULL DEFAULT 0, refunded numeric(78) NOT NULL DEFAULT 0, expires_at numeric(78) NOT NULL, created_at numeric(78) NOT NULL,
      accepted_at numeric(78), completed_at numeric(78));
    CREATE INDEX ON ${S}.missions (on_chain_id); CREATE INDEX ON ${S}.missions (poster); CREATE INDEX ON ${S}.missions (performer);
    CREATE INDEX ON ${S}.missions (guild_on_chain_id); CREATE INDEX ON ${S}.missions (state, created_at); CREATE INDEX ON ${S}.missions (created_at);
    CREATE TABLE ${S}.guilds (id text PRIMARY KEY, on_chain_id int, name text);
    CREATE TABLE ${S}.user_stats (address text PRIMARY KEY, rating_sum int NOT NULL, rating_count int NOT NULL, total_xp int NOT NULL);
    CREATE TABLE ${S}.board_entries (id text PRIMARY KEY, mission_id text NOT NULL, min_guild_xp int NOT NULL, active boolean NOT NULL);
    CREATE INDEX ON ${S}.board_entries (mission_id);
    CREATE TABLE ${S}.guild_members (id text PRIMARY KEY, guild_on_chain_id int, guild_uuid text NOT NULL, account text NOT NULL, guild_xp int NOT NULL, active boolean NOT NULL);
    CREATE INDEX ON ${S}.guild_members (account);
    CREATE TABLE ${S}.ratings (uid text PRIMARY KEY, mission_id text, rater text NOT NULL, score int NOT NULL, counted boolean NOT NULL);
    CREATE INDEX ON ${S}.ratings (rater);
    CREATE TABLE ${S}.journal (id numeric(78) PRIMARY KEY, type text NOT NULL, mission_id text);`);
  const now = Math.floor(Date.now() / 1000);
  // 30% around Berlin (dense), the rest spread over central Europe.
  await pool.query(`
    INSERT INTO api.mission_details (details_hash, on_chain_id, escrow_address, title, description, category, latitude, longitude, radius, metadata, salt)
    SELECT 'h' || i, i::text, '0xe',
           (ARRAY['Deliver','Walk','Clean','Repair','Paint','Move','Water','Fetch'])[1 + i % 8] || ' ' ||
           (ARRAY['parcel','dog','kitchen','bike','fence','piano','plants','groceries','laptop','garden'])[1 + (i / 8) % 10] || ' #' || i,
           'Task number ' || i || ' near the ' || (ARRAY['station','park','market','river','school'])[1 + i % 5],
           (ARRAY['delivery','pets','cleaning','repair','moving','garden'])[1 + i % 6],
           CASE WHEN i % 10 < 3 THEN 52.4 + random() * 0.25 ELSE 47 + random() * 8 END,
           CASE WHEN i % 10 < 3 THEN 13.2 + random() * 0.4 ELSE 5 + random() * 10 END,
           100, jsonb_build_object('tags', jsonb_build_array('t' || (i % 50))), 's'
      FROM generate_series(1, ${N}) i`);
  await pool.query(`
    INSERT INTO ${S}.missions (id, on_chain_id, escrow_address, poster, guild_on_chain_id, reward, ddr_amount, state, details_hash, expires_at, created_at)
    SELECT 'm' || i, i, '0xe', '0x' || lpad(to_hex(i % 500), 40, '0'), 0, (1 + (i::bigint * 7919) % 500000) * 1000, 1000000,
           CASE WHEN i % 10 = 9 THEN 'Completed' ELSE 'Open' END, 'h' || i, ${now} + 600 + (i::bigint * 104729) % (14 * 86400), ${now} - (${N} - i)
      FROM generate_series(1, ${N}) i`);
  await pool.query(`INSERT INTO ${S}.user_stats SELECT '0x' || lpad(to_hex(i), 40, '0'), i % 25, i % 6, i * 10 FROM generate_series(0, 499) i`);
  await pool.query(`ANALYZE`);
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

async function main() {
  const t0 = performance.now();
  const pgh = await ensurePostgres({ ephemeral: true });
  const server = await createServer({
    overrides: {
      NODE_ENV: "test", PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "silent", DATABASE_URL: pgh.url, CHAIN_SCHEMA: S, CHAIN_ID: "31337",
      DEPLOYMENT_FILE: "/nonexistent/deployment.json", INDEXER_URL: "http://127.0.0.1:9", JWT_SECRET: "measure-secret-measure-secret-0123456789",
      RATE_LIMIT_ANON_PER_MIN: "1000000", RATE_LIMIT_USER_PER_MIN: "1000000", RATE_LIMIT_PREMIUM_PER_MIN: "1000000", RELAYER_PRIVATE_KEY: "",
    },
  });
  try {
    await seed(server.deps.database.pool);
    console.log(`seeded ${N} missions in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    if (process.env.EXPLAIN) {
      // Print the plan of each distinct discovery query once (EXPLAIN=1).
      const pool = server.deps.database.pool;
      const orig = pool.query.bind(pool) as (...a: unknown[]) => Promise<unknown>;
      const seen = new Set<string>();
      (pool as unknown as { query: unknown }).query = async (text: unknown, params?: unknown) => {
        if (typeof text === "string" && /mission_details d/.test(text) && !seen.has(text.slice(0, 400))) {
          seen.add(text.slice(0, 400));
          const plan = (await orig(`EXPLAIN (ANALYZE, BUFFERS OFF) ${text}`, params)) as { rows: { "QUERY PLAN": string }[] };
          console.log(plan.rows.map((r) => r["QUERY PLAN"]).join("\n"));
        }
        return orig(text, params);
      };
    }
    const { url } = await server.listen(0);
    const account = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
    const post = (path: string, body: unknown) =>
      fetch(url + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then((r) => r.json() as Promise<any>);
    const { message } = await post("/auth/message", { address: account.address });
    const { token } = await post("/auth/verify", { address: account.address, signature: await account.signMessage({ message }) });
    const auth = { Authorization: `Bearer ${token}` };
    const cases: [string, (i: number) => string, Record<string, string>][] = [
      ["feed (relevance, with location)", () => `/feed?latitude=52.5&longitude=13.4`, auth],
      ["feed (sortBy=reward, category)", () => `/feed?sortBy=reward&category=pets`, auth],
      ["search", (i) => `/feed/search?q=${["piano", "dog", "garden", "parcel station", "kitchen"][i % 5]}`, {}],
      ["nearby (Berlin, 5 km)", (i) => `/missions/nearby?latitude=${52.45 + (i % 10) * 0.01}&longitude=13.4`, {}],
      ["nearby (50 km)", () => `/missions/nearby?latitude=52.5&longitude=13.4&radius=50000`, {}],
    ];
    for (const [name, path, headers] of cases.filter(([n]) => !ONLY || n.includes(ONLY))) {
      const times: number[] = [];
      for (let i = 0; i < R + 10; i++) {
        const s = performance.now();
        const res = await fetch(url + path(i), { headers });
        const body = (await res.json()) as any;
        if (res.status !== 200) throw new Error(`${name}: ${res.status} ${JSON.stringify(body)}`);
        if (i >= 10) times.push(performance.now() - s);
        if (i === 10) console.log(`  ${name}: total=${body.total ?? body.totalCount} returned=${(body.missions ?? body.results).length}`);
      }
      console.log(`${name}: p50 ${pct(times, 50).toFixed(1)} ms, p99 ${pct(times, 99).toFixed(1)} ms (${R} sequential requests)`);
    }
  } finally {
    await server.close();
    await pgh.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
