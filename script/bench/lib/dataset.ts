// The benchmark dataset: N missions (100k, 1M; 2,000 in smoke) loaded straight into PostgreSQL with
// set-based SQL (generate_series into a staging table, INSERT ... SELECT, indexes built after the
// load, then VACUUM ANALYZE as a long-running database would be). Deterministic (setseed).
//
// Layout, as in production:
// - the chain tables exactly as Ponder creates them (DDL derived from indexer/ponder.schema.ts, see
//   chain-ddl.ts) in schema `bench_ponder`, exposed to the API as views in `chain` (Ponder's
//   --views-schema);
// - the off-chain `api` schema from the API's own migrations (api/db/migrate.ts).
//
// Content: missions clustered around 20 real cities (cities.ts; gaussian metro areas, dense
// downtowns), states mostly Open (70%) with Accepted/Submitted/Completed/Disputed/Cancelled/Expired,
// expiries in the future, rewards in integer base units (6 decimals, log-normal around 20 USDC);
// users (N/10: posters skewed, performers, api.users profiles, user_stats with ratings and XP);
// guilds (N/5,000) with members and board entries; engagement as the feed reads it (discovery
// view/search events, chain ratings of completed missions, settlements).
//
// Ids: mission/guild ids are UUID-shaped (version 8, like domain/ids.ts) but made from md5 in
// SQL, not keccak: the API treats them as opaque strings, and hashing 1M keccaks in Node would
// dominate the load time. Hashes and addresses are lowercase hex of the right length.
import pg from "pg";
import { runMigrations } from "../../../api/db/migrate.ts";
import { createDatabase, createPool } from "../../../api/db/client.ts";
import { discoveryReadModelRepository } from "../../../api/repositories/discovery-read-model.repository.ts";
import type { BenchContext } from "../types.ts";
import { chainTables, chainViews } from "./chain-ddl.ts";
import { CITIES, cumulativeWeights, sqlArray } from "./cities.ts";
import { pinPid, SERVER_CPU } from "./pin.ts";
import { freshDatabase } from "../../lib/postgres.ts";

export interface Dataset {
  databaseUrl: string;
  chainSchema: string;
  missions: number;
  cities: { name: string; lat: number; lng: number }[];
  /** Ids as GET /missions/:id takes them, in random order (with replacement when n > matching rows). */
  missionIds(n: number, opts?: { state?: string }): Promise<string[]>;
  /** Full-text terms of the titles: rare ≈ 0.01%, medium ≈ 1%, common ≈ 25% of the missions. */
  searchTerms: { rare: string; medium: string; common: string };
  /** Seconds the load took and rows written (all tables). */
  load: { seconds: number; rows: number; rowsPerSecond: number; counts: Record<string, number> };
  /** Unix seconds used as "now" by the generator (expiries are after it). */
  now: number;
}

export const CHAIN_SCHEMA = "chain";
export const PONDER_SCHEMA = "bench_ponder";
export const SEARCH_TERMS = { rare: "harpsichord", medium: "piano", common: "help" } as const;

// Titles: "<verb> <object> <n>": 4 verbs (the common term is one of them, 25%), 100 objects (the
// medium term is one, 1%); every 10,000th mission's object is the rare term.
const VERBS = ["Help with", "Deliver", "Fix", "Clean"];
const OBJECTS = [
  "parcel", "dog", "kitchen", "bike", "fence", "piano", "plants", "groceries", "laptop", "garden",
  "sofa", "roof", "window", "bathroom", "garage", "car", "boxes", "letters", "cake", "flowers",
  "shelf", "desk", "printer", "router", "phone", "cat", "aquarium", "balcony", "stairs", "door",
  "lamp", "mirror", "wardrobe", "bed", "mattress", "carpet", "curtains", "fridge", "oven", "washer",
  "dryer", "dishwasher", "sink", "toilet", "shower", "boiler", "heater", "fan", "tiles", "walls",
  "ceiling", "floor", "gutter", "chimney", "hedge", "lawn", "trees", "pool", "shed", "gate",
  "mailbox", "bins", "recycling", "documents", "keys", "suitcase", "tent", "kayak", "skis", "guitar",
  "drums", "violin", "camera", "television", "speakers", "console", "monitor", "keyboard", "tablet", "watch",
  "jacket", "shoes", "dress", "suit", "curtain rail", "blinds", "bookcase", "chair", "table", "bench",
  "grill", "fireplace", "vase", "painting", "poster", "frame", "clock", "radio", "scooter", "stroller",
];
const CATEGORIES = ["delivery", "pets", "cleaning", "repair", "moving", "garden", "tech", "errands", "assembly", "tutoring"];
const LANDMARKS = ["station", "park", "market", "river", "school", "library", "harbour", "stadium", "museum", "bridge"];
const FIRST = ["Ada", "Ben", "Chloé", "Dev", "Elif", "Femi", "Greta", "Hiro", "Ines", "Jae", "Kofi", "Lena", "Mateo", "Nia", "Omar", "Priya"];

const textArray = (xs: readonly string[]) => `(ARRAY[${xs.map((x) => `'${x.replaceAll("'", "''")}'`).join(",")}]::text[])`;

/** The dataset of this run (loaded once, shared by B1–B4 through ctx.shared). */
export async function getDataset(ctx: BenchContext): Promise<Dataset> {
  const key = "dataset";
  let pending = ctx.shared.get(key) as Promise<Dataset> | undefined;
  if (!pending) {
    pending = loadDataset(ctx);
    ctx.shared.set(key, pending);
    pending.catch(() => ctx.shared.delete(key));
  }
  return pending;
}

async function loadDataset(ctx: BenchContext): Promise<Dataset> {
  const serverUrl = await ctx.postgresUrl();
  const N = ctx.missions;
  const dbName = `bench_${N}`;
  const databaseUrl = await freshDatabase(serverUrl, dbName);

  const t0 = performance.now();
  const api = createDatabase(databaseUrl, 2);
  try {
    await runMigrations(api);
  } finally {
    await api.close();
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const counts: Record<string, number> = {};
  const now = Math.floor(Date.now() / 1000);
  try {
    const step = async (label: string, sql: string, table?: string) => {
      const s = performance.now();
      const res = await client.query(sql);
      const rows = res.rowCount ?? 0;
      if (table) counts[table] = (counts[table] ?? 0) + rows;
      ctx.log(`dataset: ${label}${table ? ` ${rows.toLocaleString("en-US")} rows` : ""} in ${((performance.now() - s) / 1000).toFixed(1)} s`);
    };
    await client.query(`SET maintenance_work_mem = '512MB'; SET work_mem = '64MB'; SET synchronous_commit = off`);
    await client.query(`SELECT setseed(0.4242)`);

    // Chain side: Ponder's tables (no keys yet: added after the load) + the views the API reads.
    const tables = chainTables(PONDER_SCHEMA);
    await client.query(`CREATE SCHEMA ${PONDER_SCHEMA}; CREATE SCHEMA ${CHAIN_SCHEMA};`);
    for (const t of tables) await client.query(t.create);
    for (const v of chainViews(PONDER_SCHEMA, CHAIN_SCHEMA)) await client.query(v);

    // Off-chain side: drop the secondary indexes of the big API tables during the load and rebuild
    // them from their own definitions afterwards (a bulk build is several times faster).
    const apiIndexes = await client.query<{ indexname: string; indexdef: string }>(
      `SELECT i.indexname, i.indexdef FROM pg_indexes i
        WHERE i.schemaname = 'api' AND i.tablename IN ('mission_details', 'discovery_events', 'discovery_missions', 'discovery_search', 'discovery_search_terms')
          AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
    );
    for (const ix of apiIndexes.rows) await client.query(`DROP INDEX api."${ix.indexname}"`);

    const U = Math.max(200, Math.floor(N / 10)); // users
    const G = Math.max(10, Math.floor(N / 5000)); // guilds
    const cum = cumulativeWeights();
    const lat0 = sqlArray(CITIES.map((c) => c.lat));
    const lng0 = sqlArray(CITIES.map((c) => c.lng));
    const spread = sqlArray(CITIES.map((c) => c.spreadKm));
    const core = sqlArray(CITIES.map((c) => c.downtown));
    const coreKm = sqlArray(CITIES.map((c) => c.downtownKm));
    const addr = (j: string) => `('0x' || substr(md5('user:' || ${j}), 1, 32) || lpad(to_hex(${j}), 8, '0'))`;
    const uuid = (kind: string, j: string) =>
      `(SELECT substr(h,1,8)||'-'||substr(h,9,4)||'-8'||substr(h,14,3)||'-'||substr('89ab', 1 + (('x'||substr(h,17,1))::bit(4)::int % 4), 1)||substr(h,18,3)||'-'||substr(h,21,12) FROM (SELECT md5('${kind}:' || ${j}) AS h) u)`;
    const hex64 = (kind: string, j: string) => `('0x' || md5('${kind}:' || ${j}) || md5('${kind}2:' || ${j}))`;
    const userUuid = (j: string) => `md5('uid:' || ${j})::uuid`;
    const normal = `(sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()))`;

    // Staging: one row per mission with every random draw made once.
    await step(
      "staging",
      `CREATE TEMP TABLE seed AS
       SELECT i, k, st,
              ${lat0}[k] + z1 * (CASE WHEN dt THEN ${coreKm}[k] ELSE ${spread}[k] END) / 111.32 AS lat,
              ${lng0}[k] + z2 * (CASE WHEN dt THEN ${coreKm}[k] ELSE ${spread}[k] END) / (111.32 * cos(radians(${lat0}[k]))) AS lng,
              poster, performer, guild, reward, created, expires, obj, verb, cat
         FROM (SELECT i, k, random() < ${core}[k] AS dt, z1, z2, st, poster, performer, guild, reward, created, expires, obj, verb, cat
                 FROM (SELECT i,
                              width_bucket(random(), ${sqlArray([0, ...cum.slice(0, -1)])}) AS k,
                              ${normal} AS z1, ${normal} AS z2,
                              width_bucket(random(), ARRAY[0, 0.70, 0.78, 0.83, 0.95, 0.97, 0.99]::float8[]) AS st,
                              1 + floor(${U} * power(random(), 2))::int AS poster,
                              1 + floor(${U} * random())::int AS performer,
                              CASE WHEN random() < 0.25 THEN 1 + floor(${G} * random())::int ELSE 0 END AS guild,
                              (greatest(1, least(5000, round(exp(ln(20) + 0.9 * ${normal}) * 100))) * 10000)::bigint AS reward,
                              ${now} - floor(random() * 60 * 86400)::bigint AS created,
                              ${now} + 3600 + floor(random() * 30 * 86400)::bigint AS expires,
                              CASE WHEN i % 10000 = 7 THEN 0 ELSE 1 + floor(random() * 100)::int END AS obj,
                              1 + floor(random() * 4)::int AS verb,
                              1 + floor(random() * 10)::int AS cat
                         FROM generate_series(1, ${N}) i) a) b`,
    );

    const states = `(ARRAY['Open','Accepted','Submitted','Completed','Disputed','Cancelled','Expired'])[st]`;
    await step(
      "missions",
      `INSERT INTO ${PONDER_SCHEMA}.missions (id, chain_id, on_chain_id, escrow_address, poster, performer, guild_on_chain_id, guild_uuid,
          reward, ddr_amount, guild_fee_bps, state, details_hash, proof_hash, dispute_id, refund_amount, expires_at, created_at,
          accepted_at, submitted_at, review_deadline, completed_at, cancelled_at, expired_at, disputed_at,
          created_tx_hash, details_updated_tx_hash, accepted_tx_hash, submitted_tx_hash, completed_tx_hash, cancelled_tx_hash,
          expired_tx_hash, disputed_tx_hash, created_block, updated_block, updated_at)
       SELECT ${uuid("mission", "i")}, 31337, i, '0x5fbdb2315678afecb367f032d93f642f64180aa3', ${addr("poster")},
              CASE WHEN st BETWEEN 2 AND 5 THEN ${addr("performer")} END,
              guild, CASE WHEN guild > 0 THEN ${uuid("guild", "guild")} END,
              reward, reward / 20, CASE WHEN guild > 0 THEN 500 ELSE 0 END, ${states},
              ${hex64("details", "i")}, CASE WHEN st IN (3, 4, 5) THEN ${hex64("proof", "i")} END,
              CASE WHEN st = 5 THEN ${uuid("dispute", "i")} END, NULL, expires, created,
              CASE WHEN st BETWEEN 2 AND 5 THEN created + 600 END,
              CASE WHEN st IN (3, 4, 5) THEN created + 3600 END,
              CASE WHEN st IN (3, 4, 5) THEN created + 3600 + 3 * 86400 END,
              CASE WHEN st = 4 THEN created + 7200 END,
              CASE WHEN st = 6 THEN created + 300 END,
              CASE WHEN st = 7 THEN created + 300 END,
              CASE WHEN st = 5 THEN created + 7200 END,
              ${hex64("tx", "i")}, NULL,
              CASE WHEN st BETWEEN 2 AND 5 THEN ${hex64("txa", "i")} END,
              CASE WHEN st IN (3, 4, 5) THEN ${hex64("txs", "i")} END,
              CASE WHEN st = 4 THEN ${hex64("txc", "i")} END,
              CASE WHEN st = 6 THEN ${hex64("txx", "i")} END,
              CASE WHEN st = 7 THEN ${hex64("txe", "i")} END,
              CASE WHEN st = 5 THEN ${hex64("txd", "i")} END,
              (created - ${now - 60 * 86400}) / 2, (created - ${now - 60 * 86400}) / 2 + 10, created + 7200
         FROM seed`,
      "missions",
    );

    // Off-chain details, keyed by the hash the chain holds (the API joins on it).
    await step(
      "mission_details",
      `INSERT INTO api.mission_details (details_hash, on_chain_id, escrow_address, title, description, category, latitude, longitude, radius, metadata, salt, created_at)
       SELECT ${hex64("details", "i")}, i::text, '0x5fbdb2315678afecb367f032d93f642f64180aa3',
              ${textArray(VERBS)}[verb] || ' ' || CASE WHEN obj = 0 THEN '${SEARCH_TERMS.rare}' ELSE ${textArray(OBJECTS)}[obj] END || ' #' || i,
              'Near the ' || ${textArray(LANDMARKS)}[1 + i % 10] || ' in ' || ${textArray(CITIES.map((c) => c.name))}[k] ||
                '. About ' || (1 + i % 4) || ' hours, tools provided.',
              ${textArray(CATEGORIES)}[cat], lat, lng, 50 + (i % 20) * 50,
              jsonb_build_object('tags', jsonb_build_array(${textArray(CATEGORIES)}[cat], 't' || (i % 50))),
              md5('salt:' || i), to_timestamp(created)
         FROM seed`,
      "mission_details",
    );

    await step(
      "users",
      `INSERT INTO api.users (id, evm_address, display_name, created_at, last_active_at)
       SELECT ${userUuid("j")}, ${addr("j")},
              CASE WHEN j % 5 < 3 THEN ${textArray(FIRST)}[1 + j % ${FIRST.length}] || ' ' || chr(65 + j % 26) || '.' ELSE '' END,
              to_timestamp(${now - 120 * 86400} + j % (120 * 86400)), to_timestamp(${now} - j % 86400)
         FROM generate_series(1, ${U}) j`,
      "users",
    );

    // Stats as the indexer keeps them, consistent enough with the missions (posted/completed counts).
    await step(
      "user_stats",
      `INSERT INTO ${PONDER_SCHEMA}.user_stats (address, total_earned, total_spent, missions_posted, missions_completed, disputes_won,
          disputes_lost, rating_count, rating_sum, reputation, total_xp, level, streak_count, last_completion_at,
          first_mission_awarded, builder_score, first_seen_at, updated_at)
       SELECT ${addr("j")}, coalesce(c.earned, 0), coalesce(p.spent, 0), coalesce(p.n, 0), coalesce(c.n, 0), j % 3 / 2, j % 7 / 6,
              coalesce(c.n, 0) * 2, coalesce(c.n, 0) * 2 * (3 + j % 3), coalesce(c.n, 0) * 10,
              coalesce(c.n, 0) * 100 + j % 500, 1 + (coalesce(c.n, 0) * 100 + j % 500) / 1000, j % 5,
              CASE WHEN c.n > 0 THEN ${now} - j % 86400 END, coalesce(c.n, 0) > 0,
              CASE WHEN j % 4 = 0 THEN j % 100 END, ${now - 120 * 86400}, ${now}
         FROM generate_series(1, ${U}) j
         LEFT JOIN (SELECT poster AS u, count(*) AS n, sum(reward) AS spent FROM seed GROUP BY poster) p ON p.u = j
         LEFT JOIN (SELECT performer AS u, count(*) AS n, sum(reward) AS earned FROM seed WHERE st = 4 GROUP BY performer) c ON c.u = j`,
      "user_stats",
    );

    await step(
      "guilds",
      `INSERT INTO ${PONDER_SCHEMA}.guilds (id, on_chain_id, contract_address, name, display_name, description, category, fee_bps,
          treasury, creator, member_count, total_completed, total_earned, guild_reputation, created_at, tx_hash, updated_block)
       SELECT ${uuid("guild", "g")}, g, '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512', 'guild-' || g,
              ${textArray(CITIES.map((c) => c.name))}[1 + g % ${CITIES.length}] || ' ' || ${textArray(CATEGORIES)}[1 + g % 10] || ' guild ' || g,
              'A guild of ' || ${textArray(CATEGORIES)}[1 + g % 10] || ' helpers', ${textArray(CATEGORIES)}[1 + g % 10], 500,
              ${addr("(1000000 + g)")}, ${addr("g")}, 0, 0, 0, g % 100, ${now - 90 * 86400}, ${hex64("gtx", "g")}, g
         FROM generate_series(1, ${G}) g`,
      "guilds",
    );
    // A fifth of the users are members of one guild each (officers and admins among them).
    await step(
      "guild_members",
      `INSERT INTO ${PONDER_SCHEMA}.guild_members (id, guild_on_chain_id, guild_uuid, account, roles, is_curator, is_officer, is_admin, guild_xp,
          active, joined_at, left_at, updated_block)
       SELECT (1 + j % ${G}) || ':' || ${addr("j")}, 1 + j % ${G}, ${uuid("guild", `(1 + j % ${G})`)}, ${addr("j")},
              CASE WHEN j <= ${G} THEN 7 WHEN j % 10 = 0 THEN 1 ELSE 0 END, j <= ${G} OR j % 10 = 0, j <= ${G}, j <= ${G},
              (j * 37) % 2000, j % 20 <> 0, ${now - 60 * 86400}, CASE WHEN j % 20 = 0 THEN ${now - 86400} END, j
         FROM generate_series(1, ${Math.floor(U / 5)}) j`,
      "guild_members",
    );
    await client.query(
      `UPDATE ${PONDER_SCHEMA}.guilds g SET member_count = m.n FROM (SELECT guild_on_chain_id, count(*) AS n FROM ${PONDER_SCHEMA}.guild_members WHERE active GROUP BY guild_on_chain_id) m WHERE m.guild_on_chain_id = g.on_chain_id`,
    );
    // Half of the open guild missions are on their guild's board, some behind a guild-XP gate.
    await step(
      "board_entries",
      `INSERT INTO ${PONDER_SCHEMA}.board_entries (id, guild_on_chain_id, guild_uuid, mission_on_chain_id, mission_id, curator, min_guild_xp, featured,
          notes, active, created_at, updated_at, removed_at, removed_by, tx_hash)
       SELECT guild || ':' || i, guild, ${uuid("guild", "guild")}, i, ${uuid("mission", "i")}, ${addr("guild")},
              CASE WHEN i % 4 = 0 THEN (i % 5) * 250 ELSE 0 END, i % 10 = 0, '', true, created + 60, created + 60, NULL, NULL, ${hex64("btx", "i")}
         FROM seed WHERE guild > 0 AND st = 1 AND i % 2 = 0`,
      "board_entries",
    );
    // Engagement the feed reads: both ratings of every completed mission, its settlement, and the
    // discovery events (views with dwell time, searches) of a part of the users.
    await step(
      "ratings",
      `INSERT INTO ${PONDER_SCHEMA}.ratings (uid, schema_uid, mission_id_raw, mission_on_chain_id, mission_id, rater, ratee, score, comment,
          timestamp, attester, recipient, time, revocable, counted, ignored_reason, rater_role, reputation_delta, tx_hash, block_number)
       SELECT ${hex64(`r' || side || '`, "i")}, '0x' || repeat('ab', 32), '0x' || lpad(to_hex(i), 64, '0'), i, ${uuid("mission", "i")},
              CASE WHEN side = 0 THEN ${addr("poster")} ELSE ${addr("performer")} END,
              CASE WHEN side = 0 THEN ${addr("performer")} ELSE ${addr("poster")} END,
              3 + (i + side) % 3, '', created + 8000, CASE WHEN side = 0 THEN ${addr("poster")} ELSE ${addr("performer")} END,
              CASE WHEN side = 0 THEN ${addr("performer")} ELSE ${addr("poster")} END, created + 8000, false, true, NULL,
              CASE WHEN side = 0 THEN 'poster' ELSE 'performer' END, 1 + (i + side) % 3, ${hex64(`rtx' || side || '`, "i")}, i
         FROM seed CROSS JOIN (VALUES (0), (1)) s(side) WHERE st = 4`,
      "ratings",
    );
    await step(
      "settlements",
      `INSERT INTO ${PONDER_SCHEMA}.settlements (mission_id, on_chain_id, performer, performer_amount, protocol_amount, guild_amount,
          labs_amount, resolver_amount, by_claim, settled_at, tx_hash)
       SELECT ${uuid("mission", "i")}, i, ${addr("performer")}, reward - reward / 20 - CASE WHEN guild > 0 THEN reward / 20 ELSE 0 END,
              reward / 40, CASE WHEN guild > 0 THEN reward / 20 ELSE 0 END, reward / 40, 0, false, created + 7200, ${hex64("txc", "i")}
         FROM seed WHERE st = 4`,
      "settlements",
    );
    await step(
      "discovery_events",
      `INSERT INTO api.discovery_events (user_id, kind, mission_id, category, query, dwell_ms, created_at)
       SELECT ${userUuid(`(1 + (e * 7919) % ${U})`)}, CASE WHEN e % 4 = 0 THEN 'search' ELSE 'view' END,
              CASE WHEN e % 4 <> 0 THEN ${uuid("mission", `(1 + (e::bigint * 104729) % ${N})`)} END,
              ${textArray(CATEGORIES)}[1 + (e * 31) % 10],
              CASE WHEN e % 4 = 0 THEN ${textArray(OBJECTS)}[1 + e % 100] END,
              CASE WHEN e % 4 <> 0 THEN 2000 + (e * 13) % 60000 ELSE 0 END,
              to_timestamp(${now} - (e * 61) % (80 * 86400))
         FROM generate_series(1::bigint, ${Math.floor(N / 4)}) e`,
      "discovery_events",
    );

    // Keys and indexes after the load (same definitions as Ponder's / the migrations').
    for (const t of tables) for (const c of t.constraints) await step(`pk ${t.name}`, c);
    for (const t of tables) for (const ix of t.indexes) await client.query(ix);
    ctx.log(`dataset: chain indexes built`);
    // The discovery read model, projected from the loaded chain + details (the rebuild command's SQL).
    const rmPool = createPool({ connectionString: databaseUrl, max: 1 });
    try {
      const s = performance.now();
      const rows = await discoveryReadModelRepository(rmPool, CHAIN_SCHEMA).rebuild();
      counts.discovery_missions = rows;
      ctx.log(`dataset: discovery read model ${rows.toLocaleString("en-US")} rows in ${((performance.now() - s) / 1000).toFixed(1)} s`);
    } finally {
      await rmPool.end();
    }
    for (const ix of apiIndexes.rows) await step(`index ${ix.indexname}`, ix.indexdef);
    await client.query(`DROP TABLE seed`);
    await step("vacuum analyze", `VACUUM ANALYZE`);
    // Write the load's dirty buffers now (gigabytes with shared_buffers a quarter of the memory), not
    // in a checkpoint spread over the measured passes that follow. Needs a superuser or pg_checkpoint.
    await step("checkpoint", `CHECKPOINT`).catch((err: Error) => ctx.log(`dataset: CHECKPOINT skipped (${err.message})`));

    const term = await client.query<{ rare: string; medium: string; common: string }>(
      `SELECT count(*) FILTER (WHERE search_vector @@ websearch_to_tsquery('english', $1))::text AS rare,
              count(*) FILTER (WHERE search_vector @@ websearch_to_tsquery('english', $2))::text AS medium,
              count(*) FILTER (WHERE search_vector @@ websearch_to_tsquery('english', $3))::text AS common
         FROM api.mission_details`,
      [SEARCH_TERMS.rare, SEARCH_TERMS.medium, SEARCH_TERMS.common],
    );
    ctx.log(`dataset: search term hits ${JSON.stringify(term.rows[0])}`);
  } finally {
    await client.end();
  }
  const seconds = (performance.now() - t0) / 1000;
  const rows = Object.values(counts).reduce((a, b) => a + b, 0);
  const load = { seconds: Math.round(seconds * 10) / 10, rows, rowsPerSecond: Math.round(rows / seconds), counts };
  ctx.log(`dataset: ${N.toLocaleString("en-US")} missions, ${rows.toLocaleString("en-US")} rows in ${load.seconds} s (${load.rowsPerSecond.toLocaleString("en-US")} rows/s)`);
  await pinPostgres(databaseUrl);

  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1, allowExitOnIdle: true });
  pool.on("error", () => {}); // the server stops before the process exits
  return {
    databaseUrl,
    chainSchema: CHAIN_SCHEMA,
    missions: N,
    cities: CITIES.map(({ name, lat, lng }) => ({ name, lat, lng })),
    searchTerms: { ...SEARCH_TERMS },
    load,
    now,
    async missionIds(n, opts = {}) {
      const res = await pool.query<{ id: string }>(
        `SELECT id FROM ${CHAIN_SCHEMA}.missions ${opts.state ? "WHERE state = $2" : ""} ORDER BY random() LIMIT $1`,
        opts.state ? [n, opts.state] : [n],
      );
      const ids = res.rows.map((r) => r.id);
      if (ids.length === 0) return [];
      // With replacement when fewer rows match than asked for (smoke sizes).
      while (ids.length < n) ids.push(ids[Math.floor(Math.random() * res.rows.length)]!);
      return ids;
    },
  };
}

/**
 * Pins the PostgreSQL server (postmaster, so every new backend) and its current processes to the
 * server CPU. Done after the load, which may use both cores.
 */
export async function pinPostgres(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const res = await client.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity`);
    const { readFileSync } = await import("node:fs");
    const pids = new Set(res.rows.map((r) => r.pid));
    for (const pid of [...pids]) {
      try {
        // /proc/<pid>/stat: "pid (comm) state ppid ..." — the backends' parent is the postmaster.
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        if (ppid > 1) pids.add(ppid);
      } catch {
        // not on this machine (external DATABASE_URL) or gone
      }
    }
    for (const pid of pids) pinPid(pid, SERVER_CPU);
  } finally {
    await client.end();
  }
}
