// Measures the indexer on a throwaway stack (anvil + Postgres + deployment + Ponder):
//  1. live latency, receipt -> row visible to another process (a pg connection polling the views
//     schema), over LATENCY_TXS createMission transactions, with a websocket and with 100 ms polling;
//  2. backfill rate: MISSIONS full lifecycles (4 escrow events each, plus derived XP rows) mined in
//     big blocks, then a fresh indexer indexes them from scratch.
// Usage: npx tsx script/measure-indexer.ts   (DATABASE_URL to use an existing Postgres)
import pg from "pg";
import { type Address, createPublicClient, createWalletClient, http, keccak256, toHex } from "viem";
import { foundry } from "viem/chains";
import { missionEscrowAbi } from "../abis/index.ts";
import { anvilAddress } from "./lib/accounts.ts";
import { startAnvil } from "./lib/anvil.ts";
import { deploy } from "./lib/deploy.ts";
import { startIndexer } from "./lib/indexer.ts";
import { ensurePostgres } from "./lib/postgres.ts";

const LATENCY_TXS = Number(process.env.LATENCY_TXS ?? 30);
const MISSIONS = Number(process.env.MISSIONS ?? 1000);
const BATCH = 100; // transactions per mined block in the backfill load (within anvil's 30M gas)

const ms = (t: bigint) => Number(t) / 1e6;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const postgres = await ensurePostgres({ ephemeral: true });
const anvil = await startAnvil();
const file = `/tmp/measure-indexer-${process.pid}.json`;
const deployment = await deploy({
  rpcUrl: anvil.rpcUrl,
  deploymentFile: file,
  outDir: "out-indexer",
  cachePath: "cache-indexer",
});
const escrow = deployment.contracts.MissionEscrow.address;
const client = createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl) });
const wallet = createWalletClient({ chain: foundry, transport: http(anvil.rpcUrl) });
const db = new pg.Client({ connectionString: postgres.url });
await db.connect();
const [posters, performers] = [[1, 2, 3, 4].map(anvilAddress), [5, 6, 7, 8].map(anvilAddress)];
const rpc = (method: string, params: unknown[] = []) => client.request({ method, params } as never);
const nonces = new Map<Address, number>();
const call = async (from: Address, functionName: string, args: readonly unknown[], opts: { batch?: boolean } = {}) => {
  if (!opts.batch)
    return wallet.writeContract({ account: from, address: escrow, abi: missionEscrowAbi, functionName, args } as never);
  // Many transactions of one sender in one block: number them ourselves, skip gas estimation.
  if (!nonces.has(from)) nonces.set(from, await client.getTransactionCount({ address: from, blockTag: "pending" }));
  const nonce = nonces.get(from)!;
  nonces.set(from, nonce + 1);
  return wallet.writeContract({
    account: from,
    address: escrow,
    abi: missionEscrowAbi,
    functionName,
    args,
    nonce,
    gas: 400_000n,
  } as never);
};
const stops: (() => Promise<void>)[] = [anvil.stop, postgres.stop];

try {
  for (const mode of ["ws", "polling"] as const) {
    const views = `m_${mode}_v`;
    const indexer = await startIndexer({
      databaseUrl: postgres.url,
      rpcUrl: anvil.rpcUrl,
      wsUrl: mode === "ws" ? anvil.wsUrl : undefined,
      deploymentFile: file,
      schema: `m_${mode}`,
      viewsSchema: views,
    });
    const latencies: number[] = [];
    for (let i = 0; i < LATENCY_TXS; i++) {
      const hash = await call(posters[0]!, "createMission", [
        posters[0],
        1_000_000n,
        BigInt(Math.floor(Date.now() / 1000) + 86_400 * 30),
        0,
        keccak256(toHex(`lat ${mode} ${i}`)),
      ]);
      const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 1 });
      const t0 = process.hrtime.bigint();
      for (;;) {
        const { rows } = await db.query(`SELECT 1 FROM "${views}".missions WHERE created_tx_hash = $1`, [
          receipt.transactionHash,
        ]);
        if (rows.length) break;
      }
      latencies.push(ms(process.hrtime.bigint() - t0));
      await new Promise((r) => setTimeout(r, 50 + Math.random() * 100));
    }
    console.log(
      `latency ${mode}: ${LATENCY_TXS} txs, receipt -> row median ${median(latencies).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms`,
    );
    await indexer.stop();
  }

  // Backfill load: create, accept, submit, approve MISSIONS missions in blocks of BATCH transactions.
  const loadStart = Date.now();
  const first = (await client.readContract({
    address: escrow,
    abi: missionEscrowAbi,
    functionName: "missionCount",
  })) as bigint;
  for (const a of [...posters, ...performers])
    nonces.set(a, await client.getTransactionCount({ address: a, blockTag: "pending" }));
  await rpc("evm_setAutomine", [false]);
  const expiresAt = BigInt(Math.floor(Date.now() / 1000) + 86_400 * 300);
  const ids = Array.from({ length: MISSIONS }, (_, i) => first + 1n + BigInt(i));
  const details = (id: bigint) => keccak256(toHex(`load ${id}`));
  const steps: [string, (id: bigint, i: number) => [Address, readonly unknown[]]][] = [
    // One poster: its nonces order the creations, so mission ids follow `ids`.
    [
      "createMission",
      (id, i) => [posters[0]!, [posters[0], 2_000_000n + BigInt(i), expiresAt, i % 3 === 0 ? 1 : 0, details(id)]],
    ],
    ["acceptMission", (id, i) => [performers[i % 4]!, [id, performers[i % 4], details(id)]]],
    ["submitProof", (id, i) => [performers[i % 4]!, [id, keccak256(toHex(`proof ${id}`))]]],
    ["approveMission", (id) => [posters[0]!, [id]]],
  ];
  for (const [fn, argsOf] of steps) {
    for (let start = 0; start < ids.length; start += BATCH) {
      const hashes = await Promise.all(
        ids.slice(start, start + BATCH).map((id, k) => {
          const [from, args] = argsOf(id, start + k);
          return call(from, fn, args, { batch: true });
        }),
      );
      do await rpc("evm_mine");
      while (Number(((await rpc("txpool_status")) as { pending: string }).pending) > 0);
      const receipts = await Promise.all(hashes.map((hash) => client.getTransactionReceipt({ hash })));
      if (receipts.some((r) => r.status !== "success")) throw new Error(`${fn} reverted in the load`);
    }
  }
  await rpc("evm_setAutomine", [true]);
  await rpc("anvil_mine", [toHex(40)]); // past the 30-block finality depth: all of it is backfill
  console.log(`load: ${MISSIONS} missions x 4 events in ${((Date.now() - loadStart) / 1000).toFixed(1)} s`);

  const marks: Record<string, number> = { fetchMs: 0, indexMs: 0 };
  const duration = (line: string) => Number((JSON.parse(line) as { duration?: number }).duration ?? 0);
  const t0 = Date.now();
  const indexer = await startIndexer({
    databaseUrl: postgres.url,
    rpcUrl: anvil.rpcUrl,
    wsUrl: anvil.wsUrl,
    deploymentFile: file,
    schema: "m_backfill",
    viewsSchema: "m_backfill_v",
    log: (line) => {
      if (line.includes("Started backfill indexing")) marks.start ??= Date.now();
      if (line.includes("Completed backfill indexing")) marks.end ??= Date.now();
      if (line.includes("Finished fetching backfill JSON-RPC data")) marks.fetchMs! += duration(line);
      if (line.includes("Indexed block range")) marks.indexMs! += duration(line);
    },
  });
  const ready = Date.now() - t0;
  const { rows } = await db.query(
    `SELECT (SELECT count(*) FROM m_backfill_v.journal) AS journal, (SELECT count(*) FROM m_backfill_v.xp_ledger) AS xp, (SELECT count(*) FROM m_backfill_v.missions) AS missions`,
  );
  const events = MISSIONS * 4;
  const backfillMs = (marks.end ?? Date.now()) - (marks.start ?? t0);
  console.log(
    `backfill: ${events} escrow events (+ ${rows[0].journal} journal rows, ${rows[0].xp} XP rows, ${rows[0].missions} missions) ` +
      `in ${(backfillMs / 1000).toFixed(1)} s = ${Math.round(events / (backfillMs / 1000))} events/s ` +
      `(RPC fetch ${(marks.fetchMs! / 1000).toFixed(1)} s, indexing functions ${(marks.indexMs! / 1000).toFixed(1)} s = ${Math.round(events / (marks.indexMs! / 1000))} events/s); ` +
      `process start -> ready ${(ready / 1000).toFixed(1)} s`,
  );
  await indexer.stop();
} finally {
  await db.end();
  for (const stop of stops) await stop().catch(() => {});
}
