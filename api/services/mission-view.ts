// Indexed mission rows -> the spec's mission views. Amounts via the money module; exact
// coordinates only for the poster and the performer, others see the center of the geohash-6 cell
// (~1 km, "neighborhood" precision, spec "Location privacy levels").
import { formatAmount, remainingOf } from "../../domain/index.ts";
import type { MissionRow } from "../repositories/missions.repository.ts";
import { isMissionParty, viewLocation } from "./discovery/location-privacy.ts";
import type { PrivacyLens } from "./privacy.ts";

const iso = (unixSeconds: bigint | null) =>
  unixSeconds === null ? null : new Date(Number(unixSeconds) * 1000).toISOString();
const short = (a: string) => `${a.slice(0, 6)}…${a.slice(-4)}`;
// A name its owner hides from the viewer resolves like no name at all: the short address.
const party = (address: string, id: string | null, name: string | null, lens: PrivacyLens) => ({
  id: id ?? address.toLowerCase(),
  evmAddress: address.toLowerCase(),
  resolvedName: lens.field(address, "displayName", name) || short(address.toLowerCase()),
});

/** The addresses mission rows show (for one privacy lookup per response). */
export const missionParties = (rows: Pick<MissionRow, "poster" | "performer">[]) => rows.flatMap((r) => [r.poster, r.performer]);

/** The columns the views read (a statement may select only these: missions.repository.ts findForViewer). */
export type MissionViewRow = Pick<MissionRow,
  | "id" | "onChainId" | "title" | "description" | "state" | "category" | "reward" | "poster" | "posterId" | "posterName"
  | "performer" | "performerId" | "performerName" | "guildUuid" | "guildName" | "latitude" | "longitude" | "radius"
  | "expiresAt" | "createdAt" | "minReputation" | "premium" | "released" | "refunded" | "escrowAddress" | "ddrAmount"
  | "proofHash" | "metadata" | "acceptedAt" | "completedAt" | "refundAmount">;

export function locationFor(row: Pick<MissionRow, "latitude" | "longitude" | "radius" | "poster" | "performer">, viewer: string | undefined) {
  if (row.latitude === null || row.longitude === null || row.radius === null) return null;
  // One privacy rule for every response (discovery/location-privacy.ts): exact for the parties,
  // the geohash-6 cell center ("neighborhood", precision 2) for everyone else.
  const loc = viewLocation(row.latitude, row.longitude, isMissionParty(viewer, row.poster, row.performer));
  return { latitude: loc.latitude, longitude: loc.longitude, radius: row.radius, precision: loc.precision };
}

/** `lens`: the viewer's privacy lens over the poster and performer (privacy.ts). */
export function listView(row: MissionViewRow, viewer: string | undefined, lens: PrivacyLens) {
  return {
    id: row.id,
    onChainId: row.onChainId.toString(),
    title: row.title ?? "",
    description: row.description ?? "",
    state: row.state,
    category: row.category ?? "",
    rewardAmount: formatAmount(row.reward),
    poster: party(row.poster, row.posterId, row.posterName, lens),
    performer: row.performer ? party(row.performer, row.performerId, row.performerName, lens) : null,
    guild: row.guildUuid ? { id: row.guildUuid, name: row.guildName ?? "" } : null,
    location: locationFor(row, viewer),
    expiresAt: iso(row.expiresAt)!,
    createdAt: iso(row.createdAt)!,
    minReputation: row.minReputation ?? null,
    premium: row.premium ?? false,
    ...moneyView(row),
  };
}

/**
 * Partial releases (to the performer, gross) and refunds (to the poster) so far, and what the escrow
 * still holds for the mission (0 once it ended).
 */
export function moneyView(row: Pick<MissionRow, "reward" | "released" | "refunded" | "state">) {
  const { released, refunded } = row;
  return {
    releasedAmount: formatAmount(released),
    refundedAmount: formatAmount(refunded),
    remainingAmount: formatAmount(remainingOf({ reward: row.reward, released, refunded, state: row.state })),
  };
}

/** listView() and the single mission's own fields (added to the same object, no copy: bench B1's hot path). */
export function singleView(row: MissionViewRow, viewer: string | undefined, lens: PrivacyLens) {
  return Object.assign(listView(row, viewer, lens), {
    escrowAddress: row.escrowAddress.toLowerCase(),
    ddrAmount: formatAmount(row.ddrAmount),
    proofHash: row.proofHash,
    metadata: row.metadata ?? {},
    acceptedAt: iso(row.acceptedAt),
    completedAt: iso(row.completedAt),
    /** What a Cancelled or Expired mission returned to the poster (null otherwise). */
    refundAmount: row.refundAmount === null ? null : formatAmount(row.refundAmount),
  });
}

/** A single mission as GET /missions/:id shows it. */
export type MissionView = ReturnType<typeof singleView>;
