// Raises an account to a level through the real XP sources only: a builder score set on
// ReputationRegistry by the provider role (the ×1.5 multiplier) and missions completed on chain with
// that account as performer. Lands inside the level (never past it), so a test can stand just below a
// gate and then at it. Fresh funded accounts, so no other file's accounts change level.
import type { Abi, Address } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import { operatorRegistryAbi, reputationRegistryAbi } from "../../abis/index.ts";
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
    const batch = Math.max(1, Math.floor((floor - xp) / MAX_STEP_XP));
    for (let i = 0; i < batch; i++) {
      const m = await chain.createMission(poster, REWARD);
      await chain.acceptAndSubmit(performer, m);
      await chain.escrow(poster, "approveMission", [m.onChainId]);
    }
    xp = await totalXp(chain, db, views, performer.address);
  }
  if (xp >= ceiling) throw new Error(`overshot level ${level}: ${xp} XP`);
  return xp;
}

/** A fresh account that authorised `operator` (the API's relayer) on chain, as a wallet set-up does. */
export async function freshAuthorisedUser(chain: Chain, operator: Address, funds = usdc(10_000)): Promise<PrivateKeyAccount> {
  const user = await chain.freshUser(funds);
  await chain.send(user, chain.c.OperatorRegistry.address, operatorRegistryAbi as Abi, "setOperator", [operator, true]);
  return user;
}
