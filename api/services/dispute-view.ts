// Indexed dispute rows -> the spec's dispute summary / detail. ddrAmount and lppAmount are JSON
// numbers in stablecoin BASE UNITS (integers, like the summary's rewardAmount integer string);
// payouts are decimal strings via the money module (as the mission settlement).
import { formatAmount, RESOLVER_DECISION_FEE, resolverPayStatus } from "../../domain/index.ts";
import type { DisputeRow, DisputeStats } from "../repositories/disputes.repository.ts";
import { OPEN_LENS, type PrivacyLens } from "./privacy.ts";

const iso = (unixSeconds: bigint | null) =>
  unixSeconds === null ? null : new Date(Number(unixSeconds) * 1000).toISOString();
const short = (a: string) => `${a.slice(0, 6)}…${a.slice(-4)}`;

/**
 * `{ id, evmAddress, displayName }`; a party without an API account: id = lowercase address. A name its
 * owner hides from this viewer (profileVisibility.displayName) shows as the short address, as for a
 * user without a name.
 */
export function partyView(address: string | null, known: { id: string; name: string } | null | undefined, lens: PrivacyLens = OPEN_LENS) {
  if (!address) return null;
  const a = address.toLowerCase();
  const name = lens.shows(a, "displayName") ? known?.name : null;
  return { id: known?.id ?? a, evmAddress: a, displayName: name || short(a) };
}

/** Every party whose name a dispute view may show (for one privacy lookup per response). */
export const disputeParties = (rows: DisputeRow[]) => rows.flatMap((r) => [r.poster, r.performer, r.initiator, r.resolver]);

/** The indexer writes a row on DisputeOpened, so the contract's "None" never occurs in a row. */
type RowState = Exclude<DisputeRow["state"], "None">;

const amount = (v: bigint | null) => (v === null ? null : formatAmount(v));

export function summaryView(row: DisputeRow, lens: PrivacyLens = OPEN_LENS) {
  return {
    id: row.id,
    missionId: row.missionId,
    mission: { title: row.title ?? "", category: row.category ?? "", rewardAmount: row.reward.toString() },
    state: row.state as RowState,
    outcome: row.outcome,
    poster: partyView(row.poster, row.posterUser, lens)!,
    performer: partyView(row.performer, row.performerUser, lens)!,
    initiator: partyView(row.initiator, row.initiatorUser, lens)!,
    resolver: partyView(row.resolver, row.resolverUser, lens),
    ddrAmount: Number(row.ddrAmount),
    createdAt: iso(row.createdAt)!,
  };
}

export function detailView(row: DisputeRow, lens: PrivacyLens = OPEN_LENS) {
  const { mission: _mission, ...summary } = summaryView(row, lens);
  void _mission;
  return {
    ...summary,
    onChainId: row.onChainId.toString(),
    escrowAddress: row.escrowAddress.toLowerCase(),
    lppAmount: Number(row.lppAmount),
    posterEvidenceHash: row.posterEvidenceHash,
    performerEvidenceHash: row.performerEvidenceHash,
    resolutionHash: row.resolutionHash,
    resolvedAt: iso(row.resolvedAt),
    appealDeadline: iso(row.appealDeadline),
    finalizedAt: iso(row.finalizedAt),
    splitPercentage: row.outcome === "Split" ? row.splitPercentage : null,
    // Beyond the spec's table (documented in OpenAPI): deadlines, appeal and the exact payout.
    missionOnChainId: row.missionOnChainId.toString(),
    resolutionDeadline: iso(row.resolutionDeadline),
    appellant: row.appellant ? row.appellant.toLowerCase() : null,
    appealDecisionDeadline: iso(row.appealDecisionDeadline),
    appealOverturned: row.appealOverturned,
    byDefault: row.byDefault,
    missionState: row.missionState,
    payout:
      row.state === "Finalized"
        ? {
            posterAmount: amount(row.payoutPoster),
            performerAmount: amount(row.payoutPerformer),
            protocolAmount: amount(row.payoutProtocol),
            guildAmount: amount(row.payoutGuild),
            labsAmount: amount(row.payoutLabs),
            resolverAmount: amount(row.payoutResolver),
            poolAmount: amount(row.payoutPool),
          }
        : null,
    settledByAgreement: row.settledByAgreement === true,
    resolverPayment: resolverPayment(row),
  };
}

/**
 * The resolver's pay from the resolver pool, once Finalized: due to the resolver who decided (not on the
 * default outcome) or who was assigned when the parties settled; `pool_empty` when the pool had nothing.
 */
function resolverPayment(row: DisputeRow) {
  if (row.state !== "Finalized") return null;
  const due = row.byDefault !== true && row.resolver !== null && (row.resolvedAt !== null || row.settledByAgreement === true);
  const paid = row.payoutResolver ?? 0n;
  return {
    resolver: due ? row.resolver!.toLowerCase() : null,
    fee: formatAmount(RESOLVER_DECISION_FEE),
    amount: formatAmount(paid),
    status: resolverPayStatus(due, paid),
    poolAfter: amount(row.resolverPoolAfter),
  };
}

export function statsView(r: DisputeStats) {
  const { wins, losses, splits } = r;
  const decided = wins + losses + splits;
  return {
    totalAsPoster: r.poster,
    totalAsPerformer: r.performer,
    totalAsResolver: r.resolver,
    totalAsInitiator: r.initiator,
    wins,
    losses,
    splits,
    // Percent of the user's finalized PosterWins/PerformerWins/Split disputes they won, 2 decimals.
    winRate: decided === 0 ? 0 : Math.round((wins * 10000) / decided) / 100,
  };
}
