// A real reorganisation on the shared anvil while Ponder, the API's reactors and /ws run. The test
// snapshots the chain, mines an "orphan" branch, reverts to the snapshot (never below it: earlier
// files' deployment and data stay) and mines a longer, different branch:
//   block s+1: T = C accepts M4        | s+1': D accepts M1 (takes T's journal id)
//   block s+2: A accepts M1            | s+2': T again, same signed bytes (moved: a new journal id)
//   s+3..s+6: M2 created, accepted,    | then B' completes M5 (a mint once 3 blocks lie on top)
//             submitted, approved (B)  | and empty blocks until the new branch is longer
// Asserted: REST, GraphQL and /ws converge on the new branch (M1 is D's, M2 is gone); every
// notification is there once per event (T's is not doubled, D's is not lost); the orphaned
// completion is never minted (CONFIRMATIONS=3 > its depth before the reorg) while the new branch's is,
// once. Chain state changed here (blocks only) needs no restore: the new branch simply goes on.
import pg from "pg";
import { type Abi, type Hex, type PrivateKeyAccount, encodeFunctionData } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { achievementNftAbi, missionEscrowAbi } from "../../abis/index.ts";
import { ACHIEVEMENT } from "../../api/reactors/achievements.ts";
import { call, reactorPassed, signIn, startTestApi, type TestApi } from "./api-helpers.ts";
import { chainEnv, usdc } from "./indexer-helpers.ts";
import { inject } from "./lane.ts";

const CONFIRMATIONS = 3;
let api: TestApi;
let chain: ReturnType<typeof chainEnv>;
let db: pg.Pool;
let schema: string;
const frames: { event: string; data: any }[] = [];
let socket: WebSocket | undefined;

async function until<T>(what: string, fn: () => Promise<T | false | null | undefined>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      const act = await db.query(`SELECT pid, pg_blocking_pids(pid) AS blocked_by, state, wait_event_type, wait_event, now() - xact_start AS age, left(query, 160) AS q FROM pg_stat_activity WHERE state <> 'idle' AND pid <> pg_backend_pid()`).catch(() => ({ rows: [] }));
      console.error("DIAG", JSON.stringify(act.rows, null, 1));
      const dm = await db.query(`SELECT id, state, change_seq::text FROM api.discovery_missions m ORDER BY m.change_seq DESC LIMIT 5`).catch((e) => ({ rows: [String(e)] }));
      const dc = await db.query(`SELECT seq::text, mission_id, kind FROM api.discovery_changes c ORDER BY c.seq DESC LIMIT 8`).catch((e) => ({ rows: [String(e)] }));
      const cur = await db.query(`SELECT * FROM api.reactor_cursors`).catch((e) => ({ rows: [String(e)] }));
      console.error("DIAG2", JSON.stringify({ dm: dm.rows, dc: dc.rows, cur: cur.rows, frames }, null, 1));
      console.error("DIAG3 indexer", await api.indexer?.indexedBlock(), "head", await head().catch(() => null), "\n", api.indexer?.tail());
      throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ""}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

// eth_blockNumber itself: viem's getBlockNumber caches for seconds, and a revert moves the head back.
const head = async () => BigInt((await chain.rpc("eth_blockNumber")) as string);
const missionUuid = async (onChainId: bigint) =>
  (await db.query(`SELECT id FROM "${schema}".missions WHERE on_chain_id = $1`, [onChainId.toString()])).rows[0]?.id as string | undefined;
/** The wallets are fresh: their notifications are this test's. `missionId` narrows to one mission. */
const notes = async (address: string, type: string, missionId?: string) =>
  (
    await db.query(
      `SELECT source_key, journal_id::text FROM api.notifications WHERE address = $1 AND type = $2 AND ($3::text IS NULL OR data->>'missionId' = $3)`,
      [address.toLowerCase(), type, missionId ?? null],
    )
  ).rows as { source_key: string; journal_id: string }[];

/** Signs an acceptMission without sending it: the same bytes can be sent again after the reorg. */
async function signedAccept(performer: PrivateKeyAccount, m: { onChainId: bigint; detailsHash: Hex }): Promise<Hex> {
  const nonce = await chain.client.getTransactionCount({ address: performer.address, blockTag: "pending" });
  const fees = await chain.client.estimateFeesPerGas();
  return performer.signTransaction({
    chainId: chain.deployment.chainId,
    to: chain.c.MissionEscrow.address,
    data: encodeFunctionData({ abi: missionEscrowAbi as Abi, functionName: "acceptMission", args: [m.onChainId, performer.address, m.detailsHash] }),
    nonce,
    gas: 1_000_000n,
    maxFeePerGas: fees.maxFeePerGas! * 4n,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas!,
    type: "eip1559",
  });
}
async function sendRaw(raw: Hex) {
  const hash = await chain.client.sendRawTransaction({ serializedTransaction: raw });
  const receipt = await until(`receipt ${hash}`, () => chain.client.getTransactionReceipt({ hash }).catch(() => null), 60_000);
  expect(receipt.status).toBe("success");
  return receipt;
}

beforeAll(async () => {
  chain = chainEnv();
  api = await startTestApi({ CONFIRMATIONS: String(CONFIRMATIONS), REACTORS_POLL_MS: "50" }, { indexer: true });
  chain.setIndexer(api.indexer);
  schema = api.server.deps.env.CHAIN_SCHEMA;
  db = new pg.Pool({ connectionString: inject("databaseUrl"), max: 2 });
});
afterAll(async () => {
  socket?.close();
  await db?.end();
  await api?.stop();
});

describe("reorg", () => {
  it("reads, notifications, /ws and mints follow the new branch; nothing orphaned is doubled, lost or minted", async () => {
    // Before the snapshot (kept by both branches): wallets and the missions the branches act on.
    const users: PrivateKeyAccount[] = [];
    for (let i = 0; i < 7; i++) users.push(await chain.freshUser(usdc(1_000))); // one faucet: one at a time
    const [P, Q, A, B, C, D, E] = users;
    const m1 = await chain.createMission(P!, usdc(10));
    const m4 = await chain.createMission(Q!, usdc(10));
    const m5 = await chain.createMission(P!, usdc(10));
    const m1Id = (await until("M1 indexed", () => missionUuid(m1.onChainId)))!;
    const m4Id = (await until("M4 indexed", () => missionUuid(m4.onChainId)))!;
    const m5Id = (await until("M5 indexed", () => missionUuid(m5.onChainId)))!;
    // The reactors' cursors are shared by every file's API: this API may first work through what earlier
    // files left behind. Let that settle here (its own deadline, DIAG on failure), so the timed steps
    // below measure the reorg, not a backlog.
    const settled = await head();
    await until("reactors caught up with the chain", async () =>
      (await reactorPassed(db, schema, "notifications", settled)) && (await reactorPassed(db, schema, "discovery-read-model", settled)), 180_000);
    const token = await signIn(api.url, P!);
    socket = new WebSocket(`${api.url.replace("http", "ws")}/ws?token=${token}`);
    socket.on("message", (raw) => frames.push(JSON.parse(raw.toString())));
    await until("ws ready", async () => frames.some((f) => f.event === "ready"));

    const start = await head();
    const snapshot = (await chain.rpc("evm_snapshot")) as Hex;

    // The orphan branch.
    const t = await signedAccept(C!, m4);
    const tBlock = (await sendRaw(t)).blockNumber;
    await chain.escrow(A!, "acceptMission", [m1.onChainId, A!.address, m1.detailsHash]);
    const m2 = await chain.createMission(P!, usdc(10));
    await chain.acceptAndSubmit(B!, m2);
    await chain.escrow(P!, "approveMission", [m2.onChainId]);
    const orphanHead = await head();
    expect(tBlock).toBe(start + 1n);
    const m2Id = (await until("M2 indexed", () => missionUuid(m2.onChainId)))!;
    await until("notifications of the orphan branch", async () => reactorPassed(db, schema, "notifications", orphanHead));
    expect(await notes(Q!.address, "MISSION_ACCEPTED", m4Id)).toHaveLength(1);
    expect(await notes(P!.address, "MISSION_ACCEPTED", m1Id)).toHaveLength(1);
    expect(await notes(B!.address, "MISSION_COMPLETED")).toHaveLength(1);
    expect((await call(api.url, "GET", `/missions/${m2Id}`)).status).toBe(200);
    await until("ws: M1 accepted by A", async () => frames.some((f) => f.event === "mission:updated" && f.data.missionId === m1Id));
    // B's completion earns a mint, but it is < CONFIRMATIONS deep: nothing is claimed or sent.
    const mints = async (who: string) =>
      (await db.query(`SELECT achievement_id, status FROM api.achievement_mints WHERE account = $1`, [who.toLowerCase()])).rows;
    await new Promise((r) => setTimeout(r, 500));
    expect(await mints(B!.address)).toEqual([]);

    // The reorg: back to the snapshot (our own first block), then a different, longer branch.
    expect(await chain.rpc("evm_revert", [snapshot])).toBe(true);
    expect(await head()).toBe(start);
    frames.length = 0;
    await chain.escrow(D!, "acceptMission", [m1.onChainId, D!.address, m1.detailsHash]);
    const moved = await sendRaw(t);
    expect(moved.blockNumber).toBe(start + 2n);
    await chain.acceptAndSubmit(E!, m5);
    const approved = await chain.escrow(P!, "approveMission", [m5.onChainId]);
    while ((await head()) < orphanHead + BigInt(CONFIRMATIONS) + 1n) await chain.rpc("evm_mine");
    const newHead = await head();
    // Generous: after the reorg Ponder re-fetches the new branch and reverts its rows (it drops and
    // re-creates its triggers, waiting for every reader of its tables); under CI load that took > 30 s.
    await api.indexer!.waitForBlock(newHead, 90_000).catch(async (err) => {
      const status = await api.indexer!.indexedBlock();
      throw new Error(`${(err as Error).message} (indexed ${status}, head ${await head()})\n${api.indexer!.tail()}`);
    });

    // Reads converge: M1 is D's (REST, GraphQL), the orphaned M2 is gone, M4 accepted by C.
    await until("REST: M1 accepted by D", async () => {
      const r = await call(api.url, "GET", `/missions/${m1Id}`);
      const s = JSON.stringify(r.body).toLowerCase();
      return r.status === 200 && s.includes(D!.address.toLowerCase()) && !s.includes(A!.address.toLowerCase());
    });
    expect((await call(api.url, "GET", `/missions/${m2Id}`)).status).toBe(404);
    const gql = await call(api.url, "POST", "/graphql", {
      body: { query: `{ a: missions(id: "${m1Id}") { performer state } b: missions(id: "${m2Id}") { id } }` },
    });
    expect(gql.status).toBe(200);
    expect(gql.body?.data, JSON.stringify(gql.body).slice(0, 500)).toBeTruthy();
    expect(gql.body.data.a.performer.toLowerCase()).toBe(D!.address.toLowerCase());
    expect(gql.body.data.b).toBeNull();
    // /ws: P's parties feed saw M1 change hands to D.
    await until("ws: M1 accepted by D", async () =>
      frames.some((f) => f.event === "mission:updated" && f.data.missionId === m1Id && JSON.stringify(f.data).toLowerCase().includes(D!.address.toLowerCase())),
    );

    // Notifications: once per event, none lost. T was delivered before the reorg and moved: still one.
    // D's acceptance took T's old journal id: delivered. A's (orphaned) stays delivered, once.
    await until("notifications of the new branch", async () => reactorPassed(db, schema, "notifications", newHead));
    await until("D's acceptance notified", async () => (await notes(P!.address, "MISSION_ACCEPTED", m1Id)).length === 2);
    expect(await notes(Q!.address, "MISSION_ACCEPTED", m4Id)).toHaveLength(1);
    expect(await notes(B!.address, "MISSION_COMPLETED")).toHaveLength(1);
    expect(await notes(E!.address, "MISSION_COMPLETED")).toHaveLength(1);
    const dup = await db.query(
      `SELECT address, type, data->>'missionId' AS m, count(*)::int AS n FROM api.notifications
        WHERE address = ANY($1) AND NOT (address = $2 AND type = 'MISSION_ACCEPTED' AND data->>'missionId' = $3)
        GROUP BY 1, 2, 3 HAVING count(*) > 1`,
      [[P, Q, A, B, C, D, E].map((u) => u!.address.toLowerCase()), P!.address.toLowerCase(), m1Id],
    );
    expect(dup.rows).toEqual([]);

    // Irreversible effects: E's completion (new branch, now >= CONFIRMATIONS deep) is minted once; B's
    // orphaned one never is, although the chain has long passed its block number + CONFIRMATIONS.
    expect(newHead - approved.blockNumber).toBeGreaterThanOrEqual(BigInt(CONFIRMATIONS));
    await until("E's first-mission mint", async () => (await mints(E!.address)).some((r: any) => r.status === "minted"), 90_000);
    await until("achievements passed the new branch", async () => reactorPassed(db, schema, "achievements", newHead - BigInt(CONFIRMATIONS)));
    expect(await mints(B!.address)).toEqual([]);
    expect(await mints(E!.address)).toEqual([{ achievement_id: ACHIEVEMENT.FIRST_MISSION, status: "minted" }]);
    const held = async (who: Hex) =>
      (await chain.client.readContract({ address: chain.c.AchievementNFT.address, abi: achievementNftAbi as Abi, functionName: "balanceOf", args: [who] })) as bigint;
    expect(await held(B!.address)).toBe(0n);
    expect(await held(E!.address)).toBe(1n);
  }, 300_000);
});
