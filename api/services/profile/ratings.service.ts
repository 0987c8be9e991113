// Ratings: a party of a completed mission rates the other party once. The comment stays off-chain
// (api.ratings); the attestation carries only its hash, because an attestation can never be
// deleted (non-revocable) and personal text must stay erasable. Read back from EAS to verify.
import { type Address, type Hex, decodeAbiParameters, keccak256, parseAbiParameters, toBytes, zeroHash } from "viem";
import type { z } from "zod";
import { easAbi } from "../../../abis/index.ts";
import type { ChainContext } from "../../lib/ports.ts";
import { AppError } from "../../lib/errors.ts";
import type { ApiRatingRow, ProfileRepository } from "../../repositories/profile.repository.ts";
import type { UserRow, UsersRepository } from "../../repositories/users.repository.ts";
import type { RateBody } from "../../routes/profile/profile.schemas.ts";
import { RATING_SCHEMA, type RatingAttester } from "./rating-attester.ts";
import type { UsersService } from "./users.service.ts";
import type { PrivacyService } from "../privacy.ts";
import { ratingMissionView, ratingParties, ratingStatsView, subjectId } from "./views.ts";

export const commentHash = (comment: string) => `keccak256:${keccak256(toBytes(comment)).slice(2)}`;

export function ratingsService(deps: {
  repo: ProfileRepository;
  users: UsersRepository;
  usersService: UsersService;
  privacy: PrivacyService;
  chain: ChainContext;
  attester: () => RatingAttester;
  explorerUrl: string | undefined;
}) {
  const { repo, chain } = deps;

  function explorer(rating: { id: string; easUid: string | null }, origin: string) {
    if (deps.explorerUrl && rating.easUid) return `${deps.explorerUrl.replace(/\/+$/, "")}/attestation/view/${rating.easUid}`;
    return `${origin}/ratings/${rating.id}/verify`;
  }

  async function onChainView(r: ApiRatingRow, origin: string) {
    const [rater, ratee] = await Promise.all([deps.users.findByAddress(r.rater), deps.users.findByAddress(r.ratee)]);
    return {
      id: r.id,
      missionId: r.missionId,
      raterId: rater?.id ?? r.rater,
      rateeId: ratee?.id ?? r.ratee,
      score: r.score,
      comment: r.comment,
      signature: r.signature ?? "",
      easUid: r.easUid ?? "",
      onChainTxHash: r.txHash ?? "",
      isOnChain: r.status === "onchain" && !!r.easUid,
      explorerUrl: explorer(r, origin),
      createdAt: r.createdAt.toISOString(),
    };
  }

  async function missionOrThrow(missionId: string) {
    if (!/^([0-9a-f-]{36}|\d{1,78})$/i.test(missionId)) throw new AppError("MISSION_NOT_FOUND", "Mission not found");
    const m = await repo.mission(missionId);
    if (!m) throw new AppError("MISSION_NOT_FOUND", "Mission not found");
    return m;
  }

  /** `approved`: the caller has just seen the approval mined, so an index still behind does not refuse it. */
  async function rate(user: UserRow, missionId: string, body: { score: number; comment: string }, origin: string, approved = false) {
    if (!chain.deployment) throw new AppError("CHAIN_UNAVAILABLE", "No deployment: the chain is not configured");
    const m = await missionOrThrow(missionId);
    const me = user.evmAddress;
    if (me !== m.poster && me !== m.performer) throw new AppError("FORBIDDEN", "Only the mission's poster or performer may rate it");
    if (m.state !== "Completed" && !approved) throw new AppError("INVALID_STATE", `The mission is ${m.state}: ratings open once it is Completed`);
    const ratee = (me === m.poster ? m.performer : m.poster)!;
    const already = (await repo.ratingsOfMission(m.onChainId)).some((r) => r.rater === me);
    if (already) throw new AppError("ALREADY_RATED", "You have already rated this mission");
    const hash = commentHash(body.comment);
    const claim = await repo.claimRating({
      missionId: m.id, missionOnChainId: m.onChainId.toString(), rater: me, ratee, score: body.score, comment: body.comment, commentHash: hash,
    });
    if (!claim) throw new AppError("ALREADY_RATED", "You have already rated this mission");
    let done: ApiRatingRow;
    try {
      const a = await deps.attester().attest({
        missionOnChainId: m.onChainId,
        rater: me as Address,
        ratee: ratee as Address,
        score: body.score,
        comment: hash,
        timestamp: BigInt(Math.floor(claim.createdAt.getTime() / 1000)),
      });
      done = await repo.completeRating(claim.id, { easUid: a.uid, txHash: a.txHash, signature: a.signature });
    } catch (err) {
      await repo.releaseRating(claim.id);
      throw err;
    }
    return onChainView(done, origin);
  }

  return {
    rate: (user: UserRow, missionId: string, body: z.infer<typeof RateBody>, origin: string) => rate(user, missionId, body, origin),
    /**
     * The poster's rating given with the approval. The mission is settled by then whatever happens
     * here, so a rating that cannot be recorded is reported beside the settlement, not as the
     * approval's error (the poster may then retry with POST /ratings/mission/{id}).
     */
    async rateApproved(user: UserRow, missionId: string, body: { score: number; comment: string }, origin: string) {
      try {
        return { rating: await rate(user, missionId, body, origin, true) };
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        return { rating: null, ratingError: { code: err.code, message: err.message } };
      }
    },
    async ofMission(missionId: string, viewer?: string) {
      const m = await missionOrThrow(missionId);
      const rows = await repo.ratingsOfMission(m.onChainId);
      const lens = await deps.privacy.lens(viewer, ratingParties(rows));
      return rows.map((r) => ratingMissionView(r, lens));
    },
    async userStats(idOrAddress: string, viewer?: string) {
      const s = await deps.usersService.resolve(idOrAddress, "path.userId");
      await deps.privacy.require(viewer, s.address, "stats");
      return ratingStatsView(subjectId(s), await repo.ratingCounts(s.address));
    },
    /** Reads the attestation back from EAS on the chain and checks it against the API's record. */
    async verify(id: string, origin: string) {
      const dep = chain.deployment;
      if (!dep) throw new AppError("CHAIN_UNAVAILABLE", "No deployment: the chain is not configured");
      let api: ApiRatingRow | null = null;
      let uid: Hex;
      if (/^0x[0-9a-fA-F]{64}$/.test(id)) {
        uid = id.toLowerCase() as Hex;
        const c = await repo.chainRating(uid);
        if (c?.apiId) api = await repo.apiRating(c.apiId);
      } else if (/^[0-9a-f-]{36}$/i.test(id)) {
        api = await repo.apiRating(id.toLowerCase());
        if (!api) throw new AppError("NOT_FOUND", "Rating not found");
        uid = (api.easUid ?? zeroHash) as Hex;
      } else {
        throw new AppError("NOT_FOUND", "Rating not found");
      }
      let a: { uid: Hex; schema: Hex; time: bigint; revocationTime: bigint; recipient: Address; attester: Address; revocable: boolean; data: Hex };
      try {
        a = (await chain.publicClient.readContract({ address: dep.contracts.EAS.address, abi: easAbi, functionName: "getAttestation", args: [uid] })) as typeof a;
      } catch {
        throw new AppError("CHAIN_UNAVAILABLE", "The chain is unreachable; try again later");
      }
      const isOnChain = a.uid !== zeroHash;
      if (!isOnChain && !api) throw new AppError("NOT_FOUND", "Rating not found");
      let verified = false;
      if (isOnChain) {
        const [mid, rater, ratee, score, comment] = decodeAbiParameters(parseAbiParameters(RATING_SCHEMA), a.data);
        const service = [dep.relayer, dep.deployer].map((x) => x.toLowerCase());
        verified =
          a.schema.toLowerCase() === dep.ratingSchemaUid.toLowerCase() &&
          !a.revocable &&
          a.revocationTime === 0n &&
          a.recipient.toLowerCase() === ratee.toLowerCase() &&
          (service.includes(a.attester.toLowerCase()) || a.attester.toLowerCase() === rater.toLowerCase()) &&
          (!api ||
            (BigInt(mid) === BigInt(api.missionOnChainId) &&
              rater.toLowerCase() === api.rater &&
              ratee.toLowerCase() === api.ratee &&
              Number(score) === api.score &&
              comment === api.commentHash &&
              commentHash(api.comment) === api.commentHash));
      }
      const ref = { id: api?.id ?? uid, easUid: isOnChain ? uid : null };
      return {
        id: ref.id,
        easUid: isOnChain ? uid : "",
        isOnChain,
        verified,
        attestation: {
          schemaId: a.schema,
          recipient: a.recipient,
          attester: a.attester,
          time: Number(a.time),
          revocable: a.revocable,
        },
        explorerUrl: explorer(ref, origin),
      };
    },
  };
}
export type RatingsService = ReturnType<typeof ratingsService>;
