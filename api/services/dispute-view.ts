// Indexed dispute rows -> the spec's dispute summary / detail. ddrAmount and lppAmount are JSON
// numbers in stablecoin BASE UNITS (integers, like the summary's rewardAmount integer string);
// payouts are decimal strings via the money module (as the mission settlement).
import { formatAmount, RESOLVER_DECISION_FEE, resolverPayStatus } from "../../domain/index.ts";
import type { DisputeRow } from "../repositories/disputes.repository.ts";
import { OPEN_LENS, type PrivacyLens } from "./privacy.ts";

const iso = (unixSeconds: string | null) =>
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

const amount = (v: string | null) => (v === null ? null : formatAmount(BigInt(v)));

export function summaryView(row: DisputeRow, lens: PrivacyLens = OPEN_LENS) {
  const n = row.names ?? {};
  return {
    id: row.id,
    missionId: row.mission_id,
    mission: { title: row.title ?? "", category: row.category ?? "", rewardAmount: BigInt(row.reward).toString() },
    state: row.state,
    outcome: row.outcome,
    poster: partyView(row.poster, n.poster, lens)!,
    performer: partyView(row.performer, n.performer, lens)!,
    initiator: partyView(row.initiator, n.initiator, lens)!,
    resolver: partyView(row.resolver, n.resolver, lens),
    ddrAmount: Number(row.ddr_amount),
    createdAt: iso(row.created_at)!,
  };
}

export function detailView(row: DisputeRow, lens: PrivacyLens = OPEN_LENS) {
  const { mission: _mission, ...summary } = summaryView(row, lens);
  void _mission;
  return {
    ...summary,
    onChainId: row.on_chain_id,
    escrowAddress: row.escrow_address.toLowerCase(),
    lppAmount: Number(row.lpp_amount),
    posterEvidenceHash: row.poster_evidence_hash,
    performerEvidenceHash: row.performer_evidence_hash,
    resolutionHash: row.resolution_hash,
    resolvedAt: iso(row.resolved_at),
    appealDeadline: iso(row.appeal_deadline),
    finalizedAt: iso(row.finalized_at),
    splitPercentage: row.outcome === "Split" ? row.split_percentage : null,
    // Beyond the spec's table (documented in OpenAPI): deadlines, appeal and the exact payout.
    missionOnChainId: row.mission_on_chain_id,
    resolutionDeadline: iso(row.resolution_deadline),
    appellant: row.appellant ? row.appellant.toLowerCase() : null,
    appealDecisionDeadline: iso(row.appeal_decision_deadline),
    appealOverturned: row.appeal_overturned,
    byDefault: row.by_default,
    missionState: row.mission_state,
    payout:
      row.state === "Finalized"
        ? {
            posterAmount: amount(row.payout_poster),
            performerAmount: amount(row.payout_performer),
            protocolAmount: amount(row.payout_protocol),
            guildAmount: amount(row.payout_guild),
            labsAmount: amount(row.payout_labs),
            resolverAmount: amount(row.payout_resolver),
            poolAmount: amount(row.payout_pool),
          }
        : null,
    settledByAgreement: row.settled_by_agreement === true,
    resolverPayment: resolverPayment(row),
  };
}

/**
 * The resolver's pay from the resolver pool, once Finalized: due to the resolver who decided (not on the
 * default outcome) or who was assigned when the parties settled; `pool_empty` when the pool had nothing.
 */
function resolverPayment(row: DisputeRow) {
  if (row.state !== "Finalized") return null;
  const due = row.by_default !== true && row.resolver !== null && (row.resolved_at !== null || row.settled_by_agreement === true);
  const paid = BigInt(row.payout_resolver ?? "0");
  return {
    resolver: due ? row.resolver!.toLowerCase() : null,
    fee: formatAmount(RESOLVER_DECISION_FEE),
    amount: formatAmount(paid),
    status: resolverPayStatus(due, paid),
    poolAfter: amount(row.resolver_pool_after),
  };
}

export function statsView(r: Record<string, string>) {
  const wins = Number(r.wins), losses = Number(r.losses), splits = Number(r.splits);
  const decided = wins + losses + splits;
  return {
    totalAsPoster: Number(r.poster),
    totalAsPerformer: Number(r.performer),
    totalAsResolver: Number(r.resolver),
    totalAsInitiator: Number(r.initiator),
    wins,
    losses,
    splits,
    // Percent of the user's finalized PosterWins/PerformerWins/Split disputes they won, 2 decimals.
    winRate: decided === 0 ? 0 : Math.round((wins * 10000) / decided) / 100,
  };
}
