// How many blocks an irreversible side effect (an achievement mint, a webhook) waits for on top of
// the event's block. A reorg shallower than this never reaches those reactors: the runner hands
// them an entry only once it is that deep in the indexed chain, and hands over what the indexer has
// then, so an orphaned event is never acted on.
import { knownChain } from "../../indexer/lib/known-chains.ts";

export interface FinalitySettings {
  chainId: number;
  /** CONFIRMATIONS */
  confirmations?: number;
  /** ACHIEVEMENT_CONFIRMATIONS (the older, mint-only setting) */
  achievementConfirmations?: number;
}

/** CONFIRMATIONS, else 0 on the local chain (31337), else the known chain's figure, else 12. */
export const confirmationsFor = (s: FinalitySettings): number =>
  s.confirmations ?? (s.chainId === 31337 ? 0 : (knownChain(s.chainId)?.confirmations ?? 12));

/** Mints: ACHIEVEMENT_CONFIRMATIONS wins when set. */
export const mintConfirmationsFor = (s: FinalitySettings): number => s.achievementConfirmations ?? confirmationsFor(s);
