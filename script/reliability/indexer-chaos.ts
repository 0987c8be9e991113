// Faults: kill -9 the indexer N times (default 20) mid-stream and restart it each time.
// The final tables must equal a clean run's; notifications and achievement mints are neither lost
// nor doubled.
//
// Real parts only: anvil + the real deployment, a stream of real mission lifecycles through the
// escrow (script/bench/LifecycleDriver.sol: create, accept, submit, approve; completions earn XP,
// levels and achievements), our Ponder indexer, and the real API process (api/server.ts) whose
// reactors turn the journal into notifications and achievement mints (relayed transactions, which
// the indexer then indexes as NFT_MINTED, which make more notifications).
//
// Each cycle: start the indexer, wait a random time (sometimes while it is still recovering and
// catching up, sometimes after it is live), SIGKILL it, reap it, release Ponder's schema lock (we
// know the process is dead; otherwise Ponder waits up to 25 s for its heartbeat to expire) and
// start it again. Afterwards the stream stops, everything settles, and a clean indexer indexes the
// same chain into another database. Compared: every chain table row by row (ordered by primary key);
// notifications against draftsFor() over the clean journal; mints against earnedBy() over the clean
// journal and the NFTs on the chain.
//
// Alone: node --import tsx script/reliability/indexer-chaos.ts [kills]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { createPublicClient, http, toHex } from "viem";
import { API_NODE_FLAGS } from "../../api/node-flags.ts";
import { earnedBy } from "../../api/reactors/achievements.ts";
import { eventKey, journalColumns, toEntry, type JournalEntry, type JournalRow } from "../../api/repositories/journal.repository.ts";
import { draftsFor } from "../../api/services/notification-rules.ts";
import { startLifecycleChain } from "../bench/lib/lifecycle-chain.ts";
import { anvilAccount } from "../lib/accounts.ts";
import { indexedBlockOverHttp, releaseIndexerLock, spawnIndexer, startIndexer } from "../lib/indexer.ts";
import { repoRoot } from "../lib/paths.ts";
import { freePort, waitFor } from "../lib/ports.ts";
import { isAlive, spawnManaged } from "../lib/process.ts";
import { ensurePostgres, freshDatabase } from "../lib/postgres.ts";

export interface IndexerChaosResult {
  kills: number;
  /** Escrow lifecycle events the stream generated. */
  events: number;
  tablesEqual: boolean;
  diffs: string[];
  notifications: { expected: number; got: number };
  mints: { expected: number; got: number };
  seconds: number;
}

const TABLES = [
  "missions", "settlements", "disputes", "guilds", "guild_members", "board_entries", "achievement_definitions",
  "nfts", "ratings", "builder_scores", "referrals", "operator_approvals", "user_stats", "xp_ledger", "journal",
] as const;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));


async function readJournal(db: pg.Pool, schema: string): Promise<JournalEntry[]> {
  const { rows } = await db.query<JournalRow>(
    `SELECT ${journalColumns(`"${schema}".journal`)} FROM "${schema}".journal j ORDER BY j.id`,
  );
  return rows.map(toEntry);
}

export async function runIndexerChaos(
  opts: { kills?: number; log?: (s: string) => void; missionsPerTx?: number } = {},
): Promise<IndexerChaosResult> {
  const kills = opts.kills ?? 20;
  const log = opts.log ?? ((s: string) => process.stderr.write(`[indexer-chaos] ${s}\n`));
  const t0 = Date.now();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "indexer-chaos-"));
  const stops: (() => Promise<unknown>)[] = [];
  const pools: pg.Pool[] = [];
  try {
    const postgres = await ensurePostgres({ ephemeral: true, log: () => {} });
    stops.push(() => postgres.stop());
    const chain = await startLifecycleChain({ dir, log });
    stops.push(() => chain.stop());
    const mainUrl = await freshDatabase(postgres.url, "chaos_main");
    const cleanUrl = await freshDatabase(postgres.url, "chaos_clean");
    const main = new pg.Pool({ connectionString: mainUrl, max: 3 });
    const clean = new pg.Pool({ connectionString: cleanUrl, max: 3 });
    pools.push(main, clean);
    // An idle client may be terminated while indexers start and stop; the pool replaces it.
    for (const pool of [main, clean]) pool.on("error", () => {});

    // Some history before the first start, so the first run has a backfill to do.
    await chain.generate(20, { perTx: 10 });

    // The indexer under test: one schema, the API's "chain" views, one port across restarts.
    const schema = "chaos_idx";
    const port = await freePort();
    const indexerUrl = `http://127.0.0.1:${port}`;
    const indexerOptions = {
      databaseUrl: mainUrl,
      rpcUrl: chain.rpcUrl,
      wsUrl: chain.wsUrl,
      deploymentFile: chain.deploymentFile,
      schema,
      viewsSchema: "chain",
      port,
    };
    let indexer = await startIndexer(indexerOptions);
    let current = { stop: indexer.stop, pid: indexer.pid };

    // The real API process: its reactors write notifications and send mints (relayer = account 0).
    const apiPort = await freePort();
    const api = spawnManaged("api", process.execPath, [...API_NODE_FLAGS, "--import", "tsx", path.join(repoRoot, "api/server.ts")], {
      cwd: repoRoot,
      env: {
        ...process.env,
        NODE_ENV: "test",
        HOST: "127.0.0.1",
        PORT: String(apiPort),
        LOG_LEVEL: process.env.CHAOS_API_LOG ? "debug" : "warn",
        DATABASE_URL: mainUrl,
        RPC_URL: chain.rpcUrl,
        DEPLOYMENT_FILE: chain.deploymentFile,
        CHAIN_ID: "31337",
        CHAIN_SCHEMA: "chain",
        INDEXER_URL: indexerUrl,
        JWT_SECRET: "chaos-secret-chaos-secret-chaos-secret-0123",
        RELAYER_PRIVATE_KEY: toHex(anvilAccount(0).getHdKey().privateKey!),
        KEEPER_INTERVAL_MS: "0",
        REACTORS_ENABLED: "true",
        REACTORS_POLL_MS: "100",
      },
      tailLines: 80,
      // CHAOS_API_LOG=<file>: keep the API's log (reactor warnings name any entry they give up on).
      onLine: process.env.CHAOS_API_LOG ? (line) => fs.appendFileSync(process.env.CHAOS_API_LOG!, `${line}\n`) : undefined,
    });
    stops.push(() => api.stop("SIGINT", 20_000));
    await waitFor("the API", async () => (await fetch(`http://127.0.0.1:${apiPort}/openapi.json`).catch(() => null))?.ok === true, {
      timeoutMs: 120_000,
      abort: api.crashed,
    });
    log(`stack up in ${((Date.now() - t0) / 1000).toFixed(0)} s; API on :${apiPort}, indexer on :${port}`);

    // Watcher: while Ponder says ready, every block from the stream's start up to its checkpoint
    // must have journal rows (each stream block carries a driver or a mint transaction). A hole
    // means the indexer exposed a checkpoint ahead of its rows, which downstream readers (the
    // reactors) take as final.
    const streamFrom = (await chain.head()) + 1;
    const chainClient = createPublicClient({ transport: http(chain.rpcUrl) });
    const holes: string[] = [];
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        try {
          const { rows } = await main.query(
            `SELECT (m.value->>'is_ready')::int AS ready, c.latest_checkpoint AS cp,
                    (SELECT count(DISTINCT block_number) FROM "${schema}".journal
                      WHERE block_number >= $1 AND block_number <= substr(c.latest_checkpoint, 27, 16)::bigint) AS blocks
               FROM "${schema}"._ponder_meta m, "${schema}"._ponder_checkpoint c WHERE m.key = 'app'`,
            [streamFrom],
          );
          const r = rows[0];
          if (r?.ready === 1) {
            const cp = Number(String(r.cp).slice(26, 42));
            const missing = cp - streamFrom + 1 - Number(r.blocks);
            if (cp >= streamFrom && missing > 0 && holes.length < 20) {
              // Blocks without rows count only when they hold transactions: the settle phase mines
              // empty blocks to nudge the live sync, and those rightly have no journal rows.
              const { rows: gaps } = await main.query(
                `SELECT b::int AS block FROM generate_series($1::int, $2::int) b
                  WHERE NOT EXISTS (SELECT 1 FROM "${schema}".journal j WHERE j.block_number = b) LIMIT 20`,
                [streamFrom, cp],
              );
              const real: number[] = [];
              for (const { block } of gaps as { block: number }[]) {
                if ((await chainClient.getBlockTransactionCount({ blockNumber: BigInt(block) })) > 0) real.push(block);
              }
              if (real.length)
                holes.push(`${new Date().toISOString().slice(11, 23)} ready, checkpoint block ${cp}, blocks ${real.join(", ")} hold transactions but no journal rows`);
            }
          }
        } catch {
          // tables being recovered
        }
        await sleep(100);
      }
    })();

    // The stream: a few lifecycles every few hundred ms, all through the kills.
    let streaming = true;
    let streamError: unknown;
    const stream = (async () => {
      while (streaming) {
        try {
          await chain.generate(2 + Math.floor(Math.random() * 6), { perTx: opts.missionsPerTx ?? 8 });
        } catch (err) {
          streamError = err;
          return;
        }
        await sleep(150 + Math.random() * 350);
      }
    })();

    let killed = 0;
    const kill = async (pid: number, exited: Promise<unknown>) => {
      process.kill(pid, "SIGKILL");
      await exited;
      killed++;
    };
    // The first kill hits the process startIndexer brought up (live); later ones a restarted process.
    await sleep(500 + Math.random() * 3000);
    {
      const pid = current.pid;
      const exited = new Promise<void>((resolve) => {
        const t = setInterval(() => {
          if (isAlive(pid)) return;
          clearInterval(t);
          resolve();
        }, 20);
      });
      await kill(pid, exited);
      log(`kill 1/${kills} (live, chain head ${await chain.head()}, ${chain.events} events so far)`);
    }
    while (killed < kills) {
      await releaseIndexerLock(main, schema);
      let phase: "recovering" | "live" = Math.random() < 0.5 ? "recovering" : "live";
      let started = false;
      const child = spawnIndexer({
        ...indexerOptions,
        log: (line) => {
          if (line.includes("Started backfill indexing") || line.includes("Detected crash recovery")) started = true;
          if (process.env.CHAOS_API_LOG) fs.appendFileSync(`${process.env.CHAOS_API_LOG}.indexer`, `${line}\n`);
        },
      });
      try {
        // Wait until Ponder works on the schema (crash recovery / backfill), then pick the moment.
        await waitFor("the indexer to start indexing", async () => started, { timeoutMs: 180_000, intervalMs: 20, abort: child.crashed });
        if (phase === "live") {
          await waitFor("the indexer to be live", async () => (await fetch(`${indexerUrl}/ready`).catch(() => null))?.status === 200, {
            timeoutMs: 180_000,
            intervalMs: 50,
            abort: child.crashed,
          }).catch(() => void (phase = "recovering"));
        }
        await sleep(Math.random() * (phase === "live" ? 4000 : 2500));
      } catch (err) {
        if (streamError) throw streamError;
        throw new Error(`indexer restart failed: ${(err as Error).message}\n${child.tail()}`);
      }
      const block = await indexedBlockOverHttp(indexerUrl);
      await kill(child.pid, child.exited);
      log(`kill ${killed}/${kills} (${phase}, indexed block ${block ?? "-"}, chain head ${await chain.head()}, ${chain.events} events so far)`);
    }

    // Final start, then let the stream stop and everything settle.
    await releaseIndexerLock(main, schema);
    indexer = await startIndexer(indexerOptions);
    current = { stop: indexer.stop, pid: indexer.pid };
    stops.unshift(() => indexer.stop());
    streaming = false;
    await stream;
    if (streamError) throw streamError;
    log(`stream stopped: ${chain.missions} missions, ${chain.events} lifecycle events; settling`);
    // Settled = the chain head is indexed, every reactor cursor is past it, and the head stayed put
    // (mints are transactions: they add blocks, which add journal entries).
    let stableSince = Date.now();
    let lastHead = -1;
    await waitFor(
      "the indexer and the reactors to settle",
      async () => {
        const head = await chain.head();
        if (head !== lastHead) {
          lastHead = head;
          stableSince = Date.now();
        }
        const indexed = (await indexedBlockOverHttp(indexerUrl)) ?? -1;
        if (indexed < head) {
          if (indexed >= 0 && Date.now() - stableSince > 3000) await chain.mine(1); // ws: nudge the live sync
          return false;
        }
        const { rows } = await main.query(`SELECT reactor, last_id::text FROM api.reactor_cursors`);
        // A reactor's cursor reaches the newest journal row (of any type) at or below the head; it
        // never moves past rows that exist (api/reactors/runner.ts).
        const bound = BigInt(head + 1) * 1_000_000_000n;
        const top = await main.query(`SELECT coalesce(max(id), 0)::text AS id FROM chain.journal WHERE id < $1`, [bound.toString()]);
        const newest = BigInt(top.rows[0].id);
        const done = rows.length >= 2 && rows.every((r: { last_id: string }) => BigInt(r.last_id) >= newest);
        return done && Date.now() - stableSince > 4000;
      },
      { timeoutMs: 300_000, intervalMs: 250, abort: api.crashed },
    );
    const head = await chain.head();
    watching = false;
    await watcher;
    log(`settled at block ${head}`);

    // The clean run: same chain, fresh database.
    const reference = await startIndexer({
      databaseUrl: cleanUrl,
      rpcUrl: chain.rpcUrl,
      deploymentFile: chain.deploymentFile,
      schema: "clean_idx",
      viewsSchema: "clean_chain",
    });
    await reference.waitForBlock(head, 120_000);
    await reference.stop();

    const diffs: string[] = [];
    for (const table of TABLES) {
      const read = async (db: pg.Pool, s: string) =>
        (await db.query(`SELECT * FROM "${s}"."${table}" ORDER BY 1`)).rows.map((r) => JSON.stringify(r));
      const [a, b] = await Promise.all([read(main, schema), read(clean, "clean_idx")]);
      if (a.length !== b.length) diffs.push(`${table}: ${a.length} rows after the kills, ${b.length} in the clean run`);
      const n = Math.min(a.length, b.length);
      let shown = 0;
      for (let i = 0; i < n && shown < 3; i++) {
        if (a[i] !== b[i]) {
          diffs.push(`${table} row ${i}: ${a[i]!.slice(0, 300)} != ${b[i]!.slice(0, 300)}`);
          shown++;
        }
      }
    }

    // Expected side effects, from the clean journal with the API's own pure rules.
    const journal = await readJournal(clean, "clean_idx");
    const expectedNotes = new Set<string>();
    const idOfKey = new Map<string, bigint>();
    for (const e of journal) {
      idOfKey.set(eventKey(e), e.id);
      for (const d of draftsFor(e)) expectedNotes.add(`${eventKey(e)}|${d.address.toLowerCase()}|${d.type}`);
    }
    const { rows: noteRows } = await main.query(`SELECT source_key, address, type FROM api.notifications`);
    const gotNotes = noteRows.map((r: { source_key: string; address: string; type: string }) => `${r.source_key}|${r.address.toLowerCase()}|${r.type}`);
    const gotSet = new Set(gotNotes);
    const lostNotes = [...expectedNotes].filter((k) => !gotSet.has(k));
    const extraNotes = gotNotes.filter((k) => !expectedNotes.has(k));
    if (lostNotes.length) {
      // Where the losses sit: blocks (first, last, how many) and types, to tell a window from a rule.
      const blocks = [...new Set(lostNotes.map((k) => (idOfKey.get(k.split("|")[0]!) ?? 0n) / 1_000_000_000n))].sort((a, b) => (a < b ? -1 : 1));
      const types = new Map<string, number>();
      for (const k of lostNotes) types.set(k.split("|")[2]!, (types.get(k.split("|")[2]!) ?? 0) + 1);
      diffs.push(
        `notifications lost: ${lostNotes.length} in ${blocks.length} blocks ${blocks[0]}..${blocks.at(-1)} ` +
          `(${[...types].map(([t, n]) => `${t} ${n}`).join(", ")}; e.g. ${lostNotes.slice(0, 3).join(", ")})`,
      );
    }
    if (extraNotes.length || gotNotes.length !== gotSet.size)
      diffs.push(`notifications extra or doubled: ${extraNotes.length + gotNotes.length - gotSet.size} (${extraNotes.slice(0, 3).join(", ")})`);

    const expectedMints = new Set<string>();
    const completions = new Map<string, number>();
    const missionOnChain = new Map<string, string>();
    const { rows: missionRows } = await clean.query(`SELECT id, on_chain_id::text FROM clean_idx.missions`);
    for (const m of missionRows) missionOnChain.set(m.id, m.on_chain_id);
    for (const e of journal) {
      let c: number | undefined;
      if (e.type === "MISSION_COMPLETED" && e.payload.performer) {
        const who = String(e.payload.performer).toLowerCase();
        c = (completions.get(who) ?? 0) + 1;
        completions.set(who, c);
      }
      const mission = e.type === "DISPUTE_FINALIZED" && e.missionId ? missionOnChain.get(e.missionId) : undefined;
      for (const m of earnedBy(e, { completions: c, missionOnChainId: mission })) expectedMints.add(`${m.account}|${m.achievementId}`);
    }
    const { rows: nftRows } = await clean.query(`SELECT owner, achievement_id::text FROM clean_idx.nfts`);
    const gotMints = nftRows.map((r: { owner: string; achievement_id: string }) => `${r.owner.toLowerCase()}|${r.achievement_id}`);
    const gotMintSet = new Set(gotMints);
    const lostMints = [...expectedMints].filter((k) => !gotMintSet.has(k));
    const extraMints = gotMints.filter((k) => !expectedMints.has(k));
    if (lostMints.length) diffs.push(`mints lost: ${lostMints.join(", ")}`);
    if (extraMints.length || gotMints.length !== gotMintSet.size) diffs.push(`mints extra or doubled: ${extraMints.join(", ")}`);

    for (const h of holes) diffs.push(`checkpoint ahead of rows: ${h}`);
    const tablesEqual = !diffs.some((d) => /^(notifications|mints|checkpoint)/.test(d) === false);
    return {
      kills: killed,
      events: chain.events,
      tablesEqual,
      diffs,
      notifications: { expected: expectedNotes.size, got: gotNotes.length },
      mints: { expected: expectedMints.size, got: gotMints.length },
      seconds: Math.round((Date.now() - t0) / 1000),
    };
  } finally {
    for (const stop of stops) await stop().catch(() => {});
    for (const p of pools) await p.end().catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const kills = Number(process.argv[2] ?? process.env.CHAOS_KILLS ?? 20);
  runIndexerChaos({ kills })
    .then((r) => {
      console.log(JSON.stringify(r, null, 2));
      const ok = r.tablesEqual && r.diffs.length === 0 && r.notifications.expected === r.notifications.got && r.mints.expected === r.mints.got;
      process.exit(ok ? 0 : 1);
    })
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
