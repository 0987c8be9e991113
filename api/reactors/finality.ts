// How many blocks an irreversible side effect (an achievement mint, a webhook) waits for on top of
// the event's block. A reorg shallower than this never reaches those reactors: the runner hands
// them an entry only once it is that deep in the indexed chain, and hands over what the indexer has
// then, so an orphaned event is never acted on.
import { knownChain } from "../../indexer/lib/known-chains.ts";
import type { Deps } from "../deps.ts";

/** CONFIRMATIONS, else 0 on the local chain (31337), else the known chain's figure, else 12. */
export const confirmationsFor = (deps: Pick<Deps, "env" | "chain">): number =>
  deps.env.CONFIRMATIONS ?? (deps.chain.chainId === 31337 ? 0 : (knownChain(deps.chain.chainId)?.confirmations ?? 12));

/** Mints: ACHIEVEMENT_CONFIRMATIONS (the older, mint-only setting) wins when set. */
export const mintConfirmationsFor = (deps: Pick<Deps, "env" | "chain">): number =>
  deps.env.ACHIEVEMENT_CONFIRMATIONS ?? confirmationsFor(deps);
