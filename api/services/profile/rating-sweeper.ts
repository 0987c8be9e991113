// Finishes or releases rating claims that stayed `pending` (the process that took the claim died
// before recording its attestation). It works only while holding the attester's lock, so no
// attestation is in flight in any API copy, and only once the indexer has reached the chain's head,
// so "not indexed" means "not on-chain". Found on-chain (same rater, mission, score and comment
// hash): the claim is recorded with that attestation. Not found: the claim is released, and the rater
// may rate again.
import { decodeFunctionData, type Hex, type PublicClient } from "viem";
import { easAbi } from "../../../abis/index.ts";
import type { RatingClaimsRepository } from "../../repositories/rating-claims.repository.ts";
import type { IndexerService } from "../indexer.service.ts";
import type { LocksRepository } from "../../repositories/locks.repository.ts";

/** A claim younger than this may still belong to a live request (the relayer waits 60 s for a receipt). */
export const RATING_CLAIM_STALE_SECONDS = 300;

export interface RatingSweepResult {
  finished: string[];
  released: string[];
  /** Why nothing was decided this pass, if so. */
  waiting?: "attestation-in-flight" | "indexer-behind";
}

export function ratingSweeper(deps: {
  locks: Pick<LocksRepository, "withLeaderLock">;
  publicClient: PublicClient;
  indexer: Pick<IndexerService, "indexedBlock">;
  claims: RatingClaimsRepository;
  staleSeconds?: number;
}) {
  const staleSeconds = deps.staleSeconds ?? RATING_CLAIM_STALE_SECONDS;

  /** The 65-byte r || s || v signature of a delegated attestation, read back from its transaction. */
  async function signatureOf(txHash: Hex): Promise<string | null> {
    try {
      const tx = await deps.publicClient.getTransaction({ hash: txHash });
      const { functionName, args } = decodeFunctionData({ abi: easAbi, data: tx.input });
      if (functionName !== "attestByDelegation") return null;
      const sig = (args[0] as { signature: { v: number; r: Hex; s: Hex } }).signature;
      return `${sig.r}${sig.s.slice(2)}${sig.v.toString(16).padStart(2, "0")}`;
    } catch {
      return null;
    }
  }

  async function sweepLocked(): Promise<RatingSweepResult> {
    const out: RatingSweepResult = { finished: [], released: [] };
    const claims = await deps.claims.stale(staleSeconds);
    if (!claims.length) return out;
    const head = await deps.publicClient.getBlockNumber({ cacheTime: 0 });
    const indexed = await deps.indexer.indexedBlock().catch(() => null);
    if (indexed === null || indexed < head) return { ...out, waiting: "indexer-behind" };
    for (const c of claims) {
      const mine = (await deps.claims.attested(c.missionOnChainId, c.rater)).find(
        (r) => r.counted && r.score === c.score && r.comment === c.commentHash,
      );
      if (mine) {
        const done = await deps.claims.finish(c.id, { easUid: mine.uid, txHash: mine.txHash, signature: await signatureOf(mine.txHash) });
        if (done) out.finished.push(c.id);
      } else if (await deps.claims.release(c.id)) {
        out.released.push(c.id);
      }
    }
    return out;
  }

  return {
    async sweep(): Promise<RatingSweepResult> {
      const r = await deps.locks.withLeaderLock("ratingAttestation", sweepLocked);
      return r.leader ? r.result : { finished: [], released: [], waiting: "attestation-in-flight" };
    },
  };
}
export type RatingSweeper = ReturnType<typeof ratingSweeper>;
