// Raises an account to a level through the real XP sources only: a builder score set on
// ReputationRegistry by the provider role (the ×1.5 multiplier) and missions completed on chain with
// that account as performer. Lands inside the level (never past it), so a test can stand just below a
// gate and then at it. Fresh funded accounts, so no other file's accounts change level.
import { keccak256, toHex, type Abi, type Address } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import { missionEscrowAbi, operatorRegistryAbi, reputationRegistryAbi } from "../../abis/index.ts";
import { LEVEL_THRESHOLDS, MAX_LEVEL } from "../../domain/levels.ts";
import { usdc, type chainEnv } from "./indexer-helpers.ts";

type Chain = ReturnType<typeof chainEnv>;
/** 1023 USDC earns the most mission XP (50, ×1.5 with the builder score); a streak adds at most a few. */
const REWARD = usdc(1023);
/** More than any single completion can earn (75 × streak × board), so steps below it never overshoot. */
const MAX_STEP_XP = 120;

/** The account's indexed total XP (0 without a row). */
export async function totalXp(chain: Chain, db: { query: (sql: string, p?: unknown[]) => Promise<{ rows: any[] }> }, views: string, account: Address) {
  const { rows } = await db.query(`SELECT "total_xp" FROM "${views}".user_stats WHERE address = $1`, [account.toLowerCase()]);
  return Number(rows[0]?.total_xp ?? 0);
}

/**
 * Completes missions for `performer` until its indexed level is exactly `level`. `chain` must follow an
 * indexer (`chain.setIndexer`), whose views are `views`. Returns the total XP reached.
 */
export async function raiseToLevel(
  chain: Chain,
  db: { query: (sql: string, p?: unknown[]) => Promise<{ rows: any[] }> },
  views: string,
  performer: PrivateKeyAccount,
  level: number,
): Promise<number> {
  const floor = LEVEL_THRESHOLDS[level - 1]!;
  const ceiling = level < MAX_LEVEL ? LEVEL_THRESHOLDS[level]! : Infinity;
  // From the test faucet (PROVIDER_ROLE in global-setup), not account 0: that is the API's relayer, and
  // a send from it here would race the reactors' mints for its nonce.
  await chain.send(chain.faucet, chain.c.ReputationRegistry.address, reputationRegistryAbi as Abi, "setBuilderScore", [performer.address, 100]);
  let xp = await totalXp(chain, db, views, performer.address);
  if (xp >= ceiling) throw new Error(`${performer.address} is already past level ${level} (${xp} XP)`);
  if (xp >= floor) return xp;
  const missions = Math.ceil((floor - xp) / 75) + 2;
  const poster = await chain.freshUser(REWARD * BigInt(missions));
  while (xp < floor) {
    // Far from the level: several completions between reads; near it, one at a time.
    await complete(chain, poster, performer, Math.max(1, Math.floor((floor - xp) / MAX_STEP_XP)));
    xp = await totalXp(chain, db, views, performer.address);
  }
  if (xp >= ceiling) throw new Error(`overshot level ${level}: ${xp} XP`);
  return xp;
}

/**
 * `n` missions completed for `performer`, as the contract's own calls (create, accept, submit,
 * approve) in three bursts of blocks (chain.burst): the creates, then the performer's accepts and
 * submits, then the approvals. One block per transaction took a minute for level 16.
 */
async function complete(chain: Chain, poster: PrivateKeyAccount, performer: PrivateKeyAccount, n: number) {
  const escrow = { address: chain.c.MissionEscrow.address as Address, abi: missionEscrowAbi as Abi };
  const expiresAt = (await chain.now()) + 86_400n;
  const details = Array.from({ length: n }, () => keccak256(toHex(`details ${Math.random()}`)));
  const created = await chain.burst(details.map((hash) => ({
    ...escrow, account: poster, functionName: "createMission", args: [poster.address, REWARD, expiresAt, 0, hash],
  })));
  const ids = created.map((r) => chain.events(r).find((e) => e.eventName === "MissionCreated")!.args.missionId as bigint);
  await chain.burst(ids.flatMap((id, i) => [
    { ...escrow, account: performer, functionName: "acceptMission", args: [id, performer.address, details[i]] },
    { ...escrow, account: performer, functionName: "submitProof", args: [id, keccak256(toHex(`proof ${id}`))] },
  ]));
  await chain.burst(ids.map((id) => ({ ...escrow, account: poster, functionName: "approveMission", args: [id] })));
}

/** A fresh account that authorised `operator` (the API's relayer) on chain, as a wallet set-up does. */
export async function freshAuthorisedUser(chain: Chain, operator: Address, funds = usdc(10_000)): Promise<PrivateKeyAccount> {
  const user = await chain.freshUser(funds);
  await chain.send(user, chain.c.OperatorRegistry.address, operatorRegistryAbi as Abi, "setOperator", [operator, true]);
  return user;
}
