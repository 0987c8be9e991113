// The achievement-mint reactor: mints soulbound achievements when the journal says they were earned,
// through the relayer (AchievementNFT.mint, MINTER_ROLE). Exactly once: one api.achievement_mints row
// per (account, achievement) keyed to the causing journal entry, a chain read before sending, and the
// contract itself rejects a second mint (AchievementNFT_AlreadyMinted -> treated as done). On a real
// network it acts only on entries with confirmations on top (api/reactors/finality.ts).
import { type Address, zeroAddress } from "viem";
import { achievementNftAbi } from "../../abis/index.ts";
import type { ChainContext, Relayer } from "../lib/ports.ts";
import type { ProfileRepository } from "../repositories/profile.repository.ts";
import type { JournalEvent, JournalType } from "../../domain/index.ts";
import type { JournalEntry, Reactor, ReactorContext } from "./types.ts";

export const ACHIEVEMENT = {
  FIRST_MISSION: 1,
  LEVEL_6: 2,
  LEVEL_11: 3,
  LEVEL_16: 4,
  LEVEL_21: 5,
  LEVEL_25: 6,
  TEN_MISSIONS: 7,
  PERFECT_FIVE: 8,
  GUILD_FOUNDER: 9,
  PEACEMAKER: 10,
} as const;
const LEVEL_MILESTONES: [number, number][] = [
  [6, ACHIEVEMENT.LEVEL_6], [11, ACHIEVEMENT.LEVEL_11], [16, ACHIEVEMENT.LEVEL_16], [21, ACHIEVEMENT.LEVEL_21], [25, ACHIEVEMENT.LEVEL_25],
];
export const ACHIEVEMENT_TYPES = ["MISSION_COMPLETED", "LEVEL_UP", "RATING_ATTESTED", "GUILD_CREATED", "DISPUTE_FINALIZED"] as const satisfies readonly JournalType[];
const nftAbi = achievementNftAbi;

export interface Earned {
  account: string;
  achievementId: number;
  /** On-chain mission id the achievement was earned for ("0" when none). */
  missionOnChainId: string;
}

const str = (v: unknown) => (v === null || v === undefined ? "" : String(v));

/**
 * What one journal entry earns (pure). `completions` = the performer's completed missions up to and
 * including this entry (MISSION_COMPLETED only); `missionOnChainId` = the entry's mission, if any.
 */
export function earnedBy(entry: JournalEvent & Pick<JournalEntry, "account">, ctx: { completions?: number; missionOnChainId?: string } = {}): Earned[] {
  const mission = ctx.missionOnChainId ?? "0";
  switch (entry.type) {
    case "MISSION_COMPLETED": {
      const p = entry.payload;
      const performer = str(p.performer).toLowerCase();
      if (!performer) return [];
      const out: Earned[] = [{ account: performer, achievementId: ACHIEVEMENT.FIRST_MISSION, missionOnChainId: str(p.onChainId) || mission }];
      if ((ctx.completions ?? 0) >= 10) out.push({ account: performer, achievementId: ACHIEVEMENT.TEN_MISSIONS, missionOnChainId: str(p.onChainId) || mission });
      return out;
    }
    case "LEVEL_UP": {
      const p = entry.payload;
      const user = str(p.user).toLowerCase();
      const from = Number(p.previousLevel), to = Number(p.level);
      return LEVEL_MILESTONES.filter(([lvl]) => from < lvl && to >= lvl).map(([, id]) => ({ account: user, achievementId: id, missionOnChainId: "0" }));
    }
    case "RATING_ATTESTED": {
      const p = entry.payload;
      return p.counted === true && Number(p.score) === 5
        ? [{ account: str(p.ratee).toLowerCase(), achievementId: ACHIEVEMENT.PERFECT_FIVE, missionOnChainId: BigInt(str(p.missionId) || "0").toString() }]
        : [];
    }
    case "GUILD_CREATED": {
      const admin = str(entry.account ?? entry.payload.admin).toLowerCase();
      return admin ? [{ account: admin, achievementId: ACHIEVEMENT.GUILD_FOUNDER, missionOnChainId: "0" }] : [];
    }
    case "DISPUTE_FINALIZED": {
      const payout: { resolver?: unknown; resolverAmount?: unknown } = entry.payload.payout ?? {};
      const resolver = str(payout.resolver).toLowerCase();
      if (!resolver || resolver === zeroAddress || BigInt(str(payout.resolverAmount) || "0") === 0n) return [];
      return [{ account: resolver, achievementId: ACHIEVEMENT.PEACEMAKER, missionOnChainId: mission }];
    }
    default:
      return [];
  }
}

/** What the achievements reactor uses. */
export interface AchievementPorts {
  chain: Pick<ChainContext, "deployment" | "publicClient">;
  /** Null without a deployment: nothing is minted. */
  relayer: Pick<Relayer, "send"> | null;
  profile: Pick<ProfileRepository, "claimMint" | "markMint" | "completionsUpTo" | "mission">;
  /** Blocks on top before a mint (mintConfirmationsFor). */
  confirmations: number;
}

export async function mintOnce(ports: AchievementPorts, e: Earned, cause: bigint, log: ReactorContext["logger"]): Promise<"minted" | "already_minted"> {
  const nft = ports.chain.deployment!.contracts.AchievementNFT.address;
  const repo = ports.profile;
  const held = async () =>
    (await ports.chain.publicClient.readContract({ address: nft, abi: nftAbi, functionName: "tokenOfAchievement", args: [e.account as Address, BigInt(e.achievementId)] })) as bigint;
  const claim = await repo.claimMint({ account: e.account, achievementId: e.achievementId, cause: cause.toString(), missionOnChainId: e.missionOnChainId });
  if (!claim.claimed && claim.status !== "sending") return "already_minted";
  if ((await held()) !== 0n) {
    await repo.markMint(e.account, e.achievementId, "already_minted", null);
    return "already_minted";
  }
  try {
    const sent = await ports.relayer!.send("mint", [e.account as Address, BigInt(e.achievementId), BigInt(e.missionOnChainId)], { address: nft, abi: nftAbi });
    await repo.markMint(e.account, e.achievementId, "minted", sent.hash);
    log.info("achievement minted", { account: e.account, achievementId: e.achievementId, tx: sent.hash, cause: cause.toString() });
    return "minted";
  } catch (err) {
    // A mint sent before a crash may have landed meanwhile: the chain says whether it is done.
    if ((await held()) !== 0n) {
      await repo.markMint(e.account, e.achievementId, "already_minted", null);
      return "already_minted";
    }
    throw err;
  }
}

export async function handleAchievementEntry(ports: AchievementPorts, entry: JournalEntry, ctx: ReactorContext): Promise<void> {
  if (!ports.relayer || !ports.chain.deployment) return;
  const repo = ports.profile;
  let completions: number | undefined;
  let missionOnChainId: string | undefined;
  if (entry.type === "MISSION_COMPLETED" && entry.payload.performer) {
    completions = await repo.completionsUpTo(str(entry.payload.performer), entry.id);
  }
  if (entry.type === "DISPUTE_FINALIZED" && entry.missionId) {
    missionOnChainId = (await repo.mission(entry.missionId))?.onChainId.toString();
  }
  const earned = earnedBy(entry, { completions, missionOnChainId });
  if (earned.length === 0) return;
  for (const e of earned) await mintOnce(ports, e, entry.id, ctx.logger);
}

/** For the reactor runner (api/reactors/runner.ts). */
export function achievementsReactor(ports: AchievementPorts): Reactor {
  return {
    name: "achievements",
    types: ACHIEVEMENT_TYPES,
    confirmations: ports.confirmations,
    handle: (entry, ctx) => handleAchievementEntry(ports, entry, ctx),
  };
}
