// Drives the contracts directly with viem (fresh funded accounts, so other test files' activity on
// the shared chain never changes the rows asserted here) and reads the indexer's views schema.
import pg from "pg";
import {
  type Abi,
  type Address,
  type Hex,
  type TransactionReceipt,
  createPublicClient,
  createWalletClient,
  encodeAbiParameters,
  encodeFunctionData,
  http,
  keccak256,
  maxUint256,
  parseAbiParameters,
  parseEventLogs,
  toHex,
} from "viem";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import {
  achievementNftAbi,
  easAbi,
  guildRegistryAbi,
  missionEscrowAbi,
  reputationRegistryAbi,
  testStablecoinAbi,
} from "../../abis/index.ts";
import { anvilAccount, RESOLVER_ACCOUNT_INDEX, TEST_FAUCET_ACCOUNT_INDEX } from "../../script/lib/accounts.ts";
import { type IndexerHandle, startIndexer } from "../../script/lib/indexer.ts";
import { inject } from "./lane.ts";

export const usdc = (n: number) => BigInt(Math.round(n * 1e6));
export const RATING_SCHEMA =
  "bytes32 missionId,address rater,address ratee,uint8 score,string comment,uint256 timestamp";

export function chainEnv() {
  const deployment = inject("deployment");
  const rpcUrl = inject("rpcUrl");
  const client = createPublicClient({ chain: foundry, transport: http(rpcUrl) });
  const c = deployment.contracts;
  const admin = anvilAccount(0); // deployer and relayer: faucet, minter, provider, referrer, appeals
  // Mints test tokens and NFTs and grants escrow roles (global-setup gives it the roles): never
  // races the API relayer (account 0) for nonces.
  const faucet = anvilAccount(TEST_FAUCET_ACCOUNT_INDEX);
  const resolver = anvilAccount(RESOLVER_ACCOUNT_INDEX);
  const guildAdmin = anvilAccount(1); // demo-guild admin and curator

  const wallet = (account: PrivateKeyAccount | ReturnType<typeof anvilAccount>) =>
    createWalletClient({ account, chain: foundry, transport: http(rpcUrl) });

  let indexer: Pick<IndexerHandle, "waitForBlock"> | undefined;
  const setIndexer = (i: Pick<IndexerHandle, "waitForBlock"> | undefined) => (indexer = i);

  /**
   * Polls the receipt itself. viem's waitForTransactionReceipt re-checks only when it sees a NEW block:
   * on an automining anvil that is otherwise idle, a block number observed before its receipt is
   * stored means no later block ever comes, and the wait hung to its 180 s default (= the test
   * timeout; CI, community-notifications and api-missions). Bounded at 60 s, naming the call.
   */
  async function receiptOf(hash: Hex, what: string): Promise<TransactionReceipt> {
    const deadline = Date.now() + 60_000;
    let nudgeAt = Date.now() + 5_000;
    for (;;) {
      const receipt = await client.getTransactionReceipt({ hash }).catch(() => null);
      if (receipt) return receipt;
      if (Date.now() > nudgeAt) {
        // Still pending after 5 s on an automining chain: say so and mine a block (a stuck test helper
        // transaction is not what any test is about; the warning keeps it visible).
        nudgeAt = Date.now() + 5_000;
        const tx = await client.getTransaction({ hash }).catch(() => null);
        console.warn(`e2e: ${what}: ${hash} has no receipt after 5 s (${tx ? `pending, nonce ${tx.nonce}` : "unknown to the node"}); mining a block`);
        await client.request({ method: "evm_mine", params: [] } as never).catch(() => {});
      }
      if (Date.now() > deadline) {
        const tx = await client.getTransaction({ hash }).catch(() => null);
        throw new Error(`${what}: no receipt for ${hash} after 60 s (${tx ? `in the pool, nonce ${tx.nonce}` : "unknown to the node"})`);
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /** Sends a call, waits for the receipt and (when an indexer runs) for its block to be indexed. */
  async function send(
    account: PrivateKeyAccount | ReturnType<typeof anvilAccount>,
    address: Address,
    abi: Abi,
    functionName: string,
    args: readonly unknown[],
  ): Promise<TransactionReceipt> {
    const hash = await wallet(account).writeContract({ address, abi, functionName, args } as never);
    const receipt = await receiptOf(hash, `${functionName} from ${account.address}`);
    if (receipt.status !== "success") throw new Error(`${functionName} reverted`);
    if (indexer) await indexer.waitForBlock(receipt.blockNumber);
    return receipt;
  }

  const rpc = (method: string, params: unknown[] = []) => client.request({ method, params } as never);

  /**
   * Fixtures in bulk (test/e2e/levels.ts): sends the calls back to back with anvil's automine off (each
   * sender's nonces counted here, a fixed gas limit, no estimate and no receipt in between), mines them
   * into as few blocks as the block gas limit allows, turns automine back on and waits for the indexer.
   * A sender's calls keep their order (nonces); a call that needs another sender's must go in a later
   * burst. Throws naming the first call that reverted. Whatever else was sent meanwhile (the API's
   * relayer) is mined with them.
   */
  async function burst(
    calls: { account: PrivateKeyAccount | ReturnType<typeof anvilAccount>; address: Address; abi: Abi; functionName: string; args: readonly unknown[] }[],
  ): Promise<TransactionReceipt[]> {
    const GAS = 600_000n;
    const nonces = new Map<Address, number>();
    const { baseFeePerGas } = await client.getBlock();
    const maxPriorityFeePerGas = 1_000_000_000n;
    const maxFeePerGas = baseFeePerGas! * 2n + maxPriorityFeePerGas;
    const hashes: Hex[] = [];
    await rpc("evm_setAutomine", [false]);
    try {
      for (const c of calls) {
        const from = c.account.address;
        if (!nonces.has(from)) nonces.set(from, await client.getTransactionCount({ address: from, blockTag: "pending" }));
        const nonce = nonces.get(from)!;
        nonces.set(from, nonce + 1);
        const data = encodeFunctionData({ abi: c.abi, functionName: c.functionName, args: c.args } as never);
        const raw = await c.account.signTransaction({
          chainId: deployment.chainId, type: "eip1559", to: c.address, data, nonce, gas: GAS, maxFeePerGas, maxPriorityFeePerGas,
        });
        hashes.push((await rpc("eth_sendRawTransaction", [raw])) as Hex);
      }
      // A block takes what its gas limit allows; mine until every call has a receipt.
      for (let blocks = 0; ; blocks++) {
        await rpc("evm_mine");
        const last = await client.getTransactionReceipt({ hash: hashes.at(-1)! }).catch(() => null);
        if (last && (await Promise.all(hashes.map((hash) => client.getTransactionReceipt({ hash }).then(() => true, () => false)))).every(Boolean)) break;
        if (blocks > calls.length) throw new Error(`burst: ${hashes.length} transactions not mined after ${blocks} blocks`);
      }
    } finally {
      await rpc("evm_setAutomine", [true]);
      // A transaction sent by someone else after the last block would otherwise wait for the next one.
      const pool = (await rpc("txpool_status")) as { pending: Hex | number };
      if (Number(pool.pending) > 0) await rpc("evm_mine");
    }
    const receipts = await Promise.all(hashes.map((hash) => client.getTransactionReceipt({ hash })));
    const failed = receipts.findIndex((r) => r.status !== "success");
    if (failed >= 0) throw new Error(`burst: ${calls[failed]!.functionName} from ${calls[failed]!.account.address} reverted (${receipts[failed]!.transactionHash})`);
    if (indexer) await indexer.waitForBlock(receipts.reduce((max, r) => (r.blockNumber > max ? r.blockNumber : max), 0n));
    return receipts;
  }
  async function timeTravel(seconds: number | bigint) {
    await rpc("evm_increaseTime", [toHex(BigInt(seconds))]);
    await rpc("evm_mine");
  }
  const now = async () => (await client.getBlock()).timestamp;

  /** A fresh account with ETH, `funds` of the stablecoin and the escrow approved. */
  async function freshUser(funds = usdc(10_000)): Promise<PrivateKeyAccount> {
    const user = privateKeyToAccount(generatePrivateKey());
    await rpc("anvil_setBalance", [user.address, toHex(10n ** 20n)]);
    await send(faucet, c.Stablecoin.address, testStablecoinAbi, "mint", [user.address, funds]);
    await send(user, c.Stablecoin.address, testStablecoinAbi, "approve", [c.MissionEscrow.address, maxUint256]);
    return user;
  }

  const escrow = (account: PrivateKeyAccount | ReturnType<typeof anvilAccount>, fn: string, args: readonly unknown[]) =>
    send(account, c.MissionEscrow.address, missionEscrowAbi as Abi, fn, args);
  const events = (receipt: TransactionReceipt, abi: Abi = missionEscrowAbi as Abi) =>
    parseEventLogs({ abi, logs: receipt.logs }) as unknown as { eventName: string; args: Record<string, any> }[];

  async function createMission(
    poster: PrivateKeyAccount,
    reward: bigint,
    o: { expiresIn?: number; guildId?: number } = {},
  ) {
    const expiresAt = (await now()) + BigInt(o.expiresIn ?? 86_400);
    const detailsHash = keccak256(toHex(`details ${Math.random()}`));
    const receipt = await escrow(poster, "createMission", [
      poster.address,
      reward,
      expiresAt,
      o.guildId ?? 0,
      detailsHash,
    ]);
    const ev = events(receipt).find((e) => e.eventName === "MissionCreated")!;
    return { onChainId: ev.args.missionId as bigint, receipt, expiresAt, detailsHash };
  }

  async function acceptAndSubmit(performer: PrivateKeyAccount, m: { onChainId: bigint; detailsHash: Hex }) {
    const accepted = await escrow(performer, "acceptMission", [m.onChainId, performer.address, m.detailsHash]);
    const proofHash = keccak256(toHex(`proof ${m.onChainId}`));
    const submitted = await escrow(performer, "submitProof", [m.onChainId, proofHash]);
    return { accepted, submitted, proofHash };
  }

  /** Create, accept, submit and approve: a completed mission. */
  async function completeMission(poster: PrivateKeyAccount, performer: PrivateKeyAccount, reward: bigint, guildId = 0) {
    const m = await createMission(poster, reward, { guildId });
    const steps = await acceptAndSubmit(performer, m);
    const approved = await escrow(poster, "approveMission", [m.onChainId]);
    return { ...m, ...steps, approved };
  }

  async function disputed(
    poster: PrivateKeyAccount,
    performer: PrivateKeyAccount,
    reward: bigint,
    initiator: PrivateKeyAccount,
  ) {
    const m = await createMission(poster, reward);
    await acceptAndSubmit(performer, m);
    const raised = await escrow(initiator, "raiseDispute", [
      m.onChainId,
      initiator.address,
      keccak256(toHex("reason")),
    ]);
    const disputeId = events(raised).find((e) => e.eventName === "DisputeRaised")!.args.disputeId as bigint;
    return { ...m, disputeId, raised };
  }

  async function resolve(disputeId: bigint, outcome: number, split = 0) {
    await escrow(resolver, "takeDispute", [disputeId, resolver.address]);
    return escrow(resolver, "resolveDispute", [disputeId, outcome, split, keccak256(toHex(`resolution ${disputeId}`))]);
  }

  async function attestRating(
    rater: PrivateKeyAccount,
    ratee: Address,
    missionOnChainId: bigint,
    score: number,
    comment = "great",
  ) {
    const data = encodeAbiParameters(parseAbiParameters(RATING_SCHEMA), [
      toHex(missionOnChainId, { size: 32 }),
      rater.address,
      ratee,
      score,
      comment,
      await now(),
    ]);
    const receipt = await send(rater, c.EAS.address, easAbi as Abi, "attest", [
      {
        schema: deployment.ratingSchemaUid,
        data: {
          recipient: ratee,
          expirationTime: 0n,
          revocable: false,
          refUID: `0x${"0".repeat(64)}`,
          data,
          value: 0n,
        },
      },
    ]);
    const uid = events(receipt, easAbi as Abi).find((e) => e.eventName === "Attested")!.args.uid as Hex;
    return { uid, receipt };
  }

  return {
    deployment,
    client,
    c,
    admin,
    faucet,
    resolver,
    guildAdmin,
    send,
    escrow,
    events,
    rpc,
    burst,
    timeTravel,
    now,
    freshUser,
    createMission,
    acceptAndSubmit,
    completeMission,
    disputed,
    resolve,
    attestRating,
    setIndexer,
    guilds: (a: PrivateKeyAccount | ReturnType<typeof anvilAccount>, fn: string, args: readonly unknown[]) =>
      send(a, c.GuildRegistry.address, guildRegistryAbi as Abi, fn, args),
    reputation: (fn: string, args: readonly unknown[]) =>
      send(admin, c.ReputationRegistry.address, reputationRegistryAbi as Abi, fn, args),
    nft: (fn: string, args: readonly unknown[]) =>
      send(faucet, c.AchievementNFT.address, achievementNftAbi as Abi, fn, args),
  };
}

/** A throwaway pair of schemas per test file, so files never share an indexer's tables. */
export function indexerSchemas(tag: string) {
  const suffix = `${tag}_${Date.now().toString(36)}`;
  return { schema: `idx_${suffix}`, viewsSchema: `idxv_${suffix}` };
}

export async function launchIndexer(schemas: { schema: string; viewsSchema: string }, extra: { ws?: boolean } = {}) {
  return startIndexer({
    databaseUrl: inject("databaseUrl"),
    rpcUrl: inject("rpcUrl"),
    wsUrl: extra.ws === false ? undefined : inject("wsUrl"),
    deploymentFile: inject("deploymentFile"),
    ...schemas,
    log: process.env.E2E_VERBOSE ? (l) => console.log(`[indexer] ${l}`) : undefined,
  });
}

export function viewsDb(viewsSchema: string) {
  const pool = new pg.Pool({ connectionString: inject("databaseUrl"), max: 4 });
  const q = async <T = Record<string, any>>(sql: string, params: unknown[] = []): Promise<T[]> =>
    (await pool.query(sql.replaceAll("$v.", `"${viewsSchema}".`), params)).rows as T[];
  return { pool, q };
}
