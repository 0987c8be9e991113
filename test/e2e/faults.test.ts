// Faults (the indexer kill -9 family: script/reliability/indexer-chaos.ts and journal-order.test.ts):
// 1. PostgreSQL restarts while the API serves: during the outage every request fails fast with
//    503 DATABASE_UNAVAILABLE (never 500, never a hang); afterwards the pool reconnects by itself, every
//    request succeeds again and the reactor runner takes its leader lock again. A PostgreSQL of this
//    file's own (data dir + port kept across the restart), not the shared one.
// 2. The RPC goes down (a TCP proxy in front of anvil is cut): writes answer 503 CHAIN_UNAVAILABLE,
//    reads of indexed data keep working, nothing is half-written (no details row without its mission,
//    the idempotency key is released) and the same request with the same key succeeds after recovery.
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { type Address } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missionEscrowAbi } from "../../abis/index.ts";
import { LOCK_IDS } from "../../api/repositories/locks.repository.ts";
import { anvilAccount } from "../../script/lib/accounts.ts";
import { freePort } from "../../script/lib/ports.ts";
import { startEmbeddedPostgres, type PostgresHandle } from "../../script/lib/postgres.ts";
import { call, signIn, startTestApi, type TestApi } from "./api-helpers.ts";
import { chainEnv } from "./indexer-helpers.ts";
import { inject } from "./lane.ts";

const REACTOR_LOCK = LOCK_IDS.reactors;

/** A TCP proxy that can be cut (connections refused and open ones reset) and restored on the same port. */
async function tcpProxy(target: URL) {
  const port = await freePort();
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  const open = () =>
    new Promise<void>((resolve, reject) => {
      server = net.createServer((client) => {
        const upstream = net.connect(Number(target.port), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on("close", () => sockets.delete(s));
          s.on("error", () => {});
        }
        client.pipe(upstream).pipe(client);
      });
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve());
    });
  await open();
  return {
    url: `http://127.0.0.1:${port}`,
    async cut() {
      const s = server!;
      await new Promise<void>((r) => {
        s.close(() => r());
        for (const sock of sockets) sock.destroy();
      });
    },
    restore: open,
  };
}

describe("PostgreSQL restart while serving", () => {
  let tmp: string;
  let port: number;
  let pgHandle: PostgresHandle | undefined;
  let api: TestApi;
  let token: string;
  const user = privateKeyToAccount(generatePrivateKey());

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "faults-pg-"));
    fs.chmodSync(tmp, 0o755);
    port = await freePort();
    pgHandle = await startEmbeddedPostgres({ dataDir: path.join(tmp, "data"), port });
    api = await startTestApi({ DATABASE_URL: pgHandle.url, REACTORS_POLL_MS: "50", KEEPER_INTERVAL_MS: "0" });
    token = await signIn(api.url, user);
  }, 60_000);
  afterAll(async () => {
    await api?.stop();
    await pgHandle?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const leaderLocks = async (url: string) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      const { rows } = await c.query("SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND granted", [REACTOR_LOCK]);
      return rows[0].n as number;
    } finally {
      await c.end();
    }
  };
  const probes = () => [
    call(api.url, "GET", "/vault/permissions", { token }),
    call(api.url, "GET", "/notifications/unread-count", { token }),
    call(api.url, "POST", "/auth/message", { body: { address: privateKeyToAccount(generatePrivateKey()).address } }),
    call(api.url, "PATCH", "/notifications/preferences", { token, body: { missionUpdates: true } }),
  ];

  it("fails fast with 503 DATABASE_UNAVAILABLE during the outage and recovers by itself", async () => {
    for (const r of await Promise.all(probes())) expect(r.status, JSON.stringify(r.body)).toBe(200);
    await expect.poll(() => leaderLocks(pgHandle!.url), { timeout: 10_000 }).toBe(1);

    await pgHandle!.stop();
    pgHandle = undefined;
    const started = Date.now();
    const during = await Promise.all([...probes(), ...probes(), call(api.url, "GET", "/health")]);
    const elapsed = Date.now() - started;
    for (const r of during) {
      expect(r.status, JSON.stringify(r.body)).toBe(503);
      expect(["DATABASE_UNAVAILABLE", "INDEXER_UNAVAILABLE", "INTERNAL_ERROR"]).toContain(r.body.error.code);
    }
    // Every non-health probe names the cause; /health keeps its documented envelope.
    for (const r of during.slice(0, -1)) expect(r.body.error.code).toBe("DATABASE_UNAVAILABLE");
    for (const r of during.slice(0, -1)) expect(r.headers.get("retry-after")).toBe("5");
    expect(elapsed, "no hang during the outage").toBeLessThan(12_000);

    pgHandle = await startEmbeddedPostgres({ dataDir: path.join(tmp, "data"), port });
    const back = Date.now();
    // Recovers without a restart of the API: the first successful round...
    await expect
      .poll(async () => (await Promise.all(probes())).every((r) => r.status === 200), { timeout: 30_000, interval: 250 })
      .toBe(true);
    const recoveredMs = Date.now() - back;
    // ...and then every request succeeds (no broken connection left in the pool).
    for (let i = 0; i < 5; i++) {
      for (const r of await Promise.all([...probes(), ...probes()])) expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    // Sign-in (nonce insert + verify + user upsert) works again.
    expect(await signIn(api.url, privateKeyToAccount(generatePrivateKey()))).toMatch(/^eyJ/);
    // The reactor runner notices its lost connection and takes the leader lock again.
    await expect.poll(() => leaderLocks(pgHandle!.url), { timeout: 15_000 }).toBe(1);
    console.log(`faults: PostgreSQL outage answered in ${elapsed} ms (${during.length} requests, all 503); recovered ${recoveredMs} ms after restart`);
  }, 100_000);
});

describe("RPC down", () => {
  let api: TestApi;
  let proxy: Awaited<ReturnType<typeof tcpProxy>>;
  let db: pg.Client;
  const poster = anvilAccount(6), performer = anvilAccount(8);
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    proxy = await tcpProxy(new URL(inject("rpcUrl")));
    api = await startTestApi({ RPC_URL: proxy.url, KEEPER_INTERVAL_MS: "0" }, { indexer: true });
    db = new pg.Client({ connectionString: inject("databaseUrl") });
    await db.connect();
    tokens.poster = await signIn(api.url, poster);
    tokens.performer = await signIn(api.url, performer);
  }, 110_000); // an indexer of its own: slow to start when the machine is shared
  afterAll(async () => {
    await proxy?.restore().catch(() => {});
    await api?.stop();
    await db?.end();
  });

  const body = { title: "Fault test", description: "RPC outage", rewardAmount: "2.5", category: "other", expiresIn: 3600 };
  const orphanDetails = async () =>
    Number((await db.query(
      `SELECT count(*) AS n FROM api.mission_details d JOIN api.users u ON u.id = d.created_by
        WHERE u.evm_address = $1 AND d.on_chain_id IS NULL`, [poster.address.toLowerCase()])).rows[0].n);
  const keyRows = async (key: string) => Number((await db.query("SELECT count(*) AS n FROM api.idempotency_keys WHERE key = $1", [key])).rows[0].n);

  it("answers 503 CHAIN_UNAVAILABLE, writes nothing half, and the same request succeeds after recovery", async () => {
    const chain = chainEnv();
    const first = await call(api.url, "POST", "/missions", { token: tokens.poster, body });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const missionId = first.body.data.id as string;
    const orphansBefore = await orphanDetails();

    await proxy.cut();
    const key = `faults-${Date.now()}`;
    const t0 = Date.now();
    const down = await call(api.url, "POST", "/missions", { token: tokens.poster, body, headers: { "Idempotency-Key": key } });
    expect(down.status, JSON.stringify(down.body)).toBe(503);
    expect(down.body.error.code).toBe("CHAIN_UNAVAILABLE");
    const accept = await call(api.url, "POST", `/missions/${missionId}/accept`, { token: tokens.performer });
    expect(accept.status, JSON.stringify(accept.body)).toBe(503);
    expect(accept.body.error.code).toBe("CHAIN_UNAVAILABLE");
    const downMs = Date.now() - t0;
    expect(downMs, "the outage is answered, not hung").toBeLessThan(30_000);
    // Reads of indexed data do not need the RPC.
    const read = await call(api.url, "GET", `/missions/${missionId}`);
    expect(read.status).toBe(200);
    expect(read.body.data.state).toBe("Open");
    // Nothing half-written: no details row without its mission, the key released (5xx is not stored).
    expect(await orphanDetails()).toBe(orphansBefore);
    expect(await keyRows(key)).toBe(0);

    await proxy.restore();
    const retry = await call(api.url, "POST", "/missions", { token: tokens.poster, body, headers: { "Idempotency-Key": key } });
    expect(retry.status, JSON.stringify(retry.body)).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBeNull(); // a fresh execution, not a replay of the 503
    const onChain = (await chain.client.readContract({
      address: chain.c.MissionEscrow.address as Address, abi: missionEscrowAbi, functionName: "getMission", args: [BigInt(retry.body.data.onChainId)],
    })) as { poster: Address; reward: bigint };
    expect(onChain.poster.toLowerCase()).toBe(poster.address.toLowerCase());
    expect(onChain.reward).toBe(2_500_000n);
    // The replay of the stored 201 and the accept that failed during the outage now go through.
    const replay = await call(api.url, "POST", "/missions", { token: tokens.poster, body, headers: { "Idempotency-Key": key } });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body.data.onChainId).toBe(retry.body.data.onChainId);
    const accepted = await call(api.url, "POST", `/missions/${missionId}/accept`, { token: tokens.performer });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(await orphanDetails()).toBe(orphansBefore);
    console.log(`faults: RPC outage answered 503 CHAIN_UNAVAILABLE in ${downMs} ms for 2 writes`);
  }, 100_000);
});
