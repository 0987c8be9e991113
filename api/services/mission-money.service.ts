// Money in trouble: settlement offers (before or during a dispute), partial release (poster) and
// partial refund (performer). Who may act and in which state is checked first, for clear errors and
// so that a refused request sends nothing; the escrow's own checks back them up (chain-errors.ts).
import type { Address } from "viem";
import type { z } from "zod";
import {
  formatAmount,
  type MissionState,
  missionState,
  parseAmount,
  PARTIAL_PAYMENT_STATES,
  remainingOf,
  settlementBlocked,
} from "../../domain/index.ts";
import { AppError, validationError } from "../lib/errors.ts";
import type { MissionRow } from "../repositories/missions.repository.ts";
import type { OfferRow, PaymentRow, SettlementsRepository } from "../repositories/settlements.repository.ts";
import type { UserRow } from "../repositories/users.repository.ts";
import type { AcceptBody, OfferBody, PartialBody } from "../routes/missions/money.schemas.ts";
import { eq, event, missionContext, type MissionDeps } from "./mission-context.ts";

export type MoneyDeps = MissionDeps & { settlements: SettlementsRepository };
type Side = "poster" | "performer";

const iso = (unixSeconds: bigint) => new Date(Number(unixSeconds) * 1000).toISOString();
const remaining = (row: MissionRow) => remainingOf({ reward: row.reward, released: row.released, refunded: row.refunded, state: row.state });

/** An offer as the API shows it; the poster's part is what accepting it now would give the poster. */
export function offerView(o: OfferRow, rest: bigint) {
  const performer = o.performerAmount;
  return {
    by: (o.byPoster ? "poster" : "performer") as Side,
    performerAmount: formatAmount(performer),
    posterAmount: formatAmount(rest > performer ? rest - performer : 0n),
    createdAt: iso(o.createdAt),
  };
}

const settlementOf = (p: PaymentRow | null, s: Record<string, bigint> | undefined) => {
  const pick = (col: "performerAmount" | "protocolAmount" | "guildAmount" | "labsAmount" | "poolAmount", v: bigint | undefined) => formatAmount(p ? p[col] : (v ?? 0n));
  return {
    performerAmount: pick("performerAmount", s?.performerAmount),
    protocolAmount: pick("protocolAmount", s?.protocolAmount),
    guildAmount: pick("guildAmount", s?.guildAmount),
    labsAmount: pick("labsAmount", s?.labsAmount),
    resolverAmount: pick("poolAmount", s?.resolverAmount),
  };
};

export function moneyService(deps: MoneyDeps) {
  const { settlements } = deps;
  const { ready, mustFind, view, requireSetup } = missionContext(deps);

  /** The caller's side of the mission; 403 FORBIDDEN for anyone else. */
  const sideOf = (row: MissionRow, user: UserRow): Side => {
    if (eq(row.poster, user.evmAddress)) return "poster";
    if (eq(row.performer, user.evmAddress)) return "performer";
    throw new AppError("FORBIDDEN", "Only the mission's poster or performer may do this");
  };
  const assertSettleable = async (row: MissionRow) => {
    const dispute = row.state === "Disputed" ? await settlements.dispute(row.id) : null;
    const blocked = settlementBlocked(row.state, dispute?.state ?? null);
    if (blocked) throw new AppError("INVALID_STATE", blocked);
  };
  const assertPartialState = (row: MissionRow) => {
    if (!(PARTIAL_PAYMENT_STATES as readonly string[]).includes(row.state)) {
      throw new AppError("INVALID_STATE", `The mission is ${row.state}: money moves in parts only while it is Accepted or Submitted`);
    }
  };
  /** 400 with the field when `amount` exceeds what the escrow still holds for the mission. */
  const withinRemainder = (row: MissionRow, amount: bigint, field: string) => {
    const rest = remaining(row);
    if (amount > rest) {
      throw validationError([{ field, reason: `must be at most ${formatAmount(rest)} (the mission's remaining escrow)` }]);
    }
  };
  const mission = async (id: string, user: UserRow) => (await view(id, user.evmAddress as Address))!;

  return {
    async offerSettlement(user: UserRow, id: string, input: z.infer<typeof OfferBody>) {
      const { relayer } = ready();
      const row = await mustFind(id);
      const side = sideOf(row, user);
      await assertSettleable(row);
      const amount = parseAmount(input.performerAmount);
      withinRemainder(row, amount, "body.performerAmount");
      await requireSetup(user.evmAddress);
      const tx = await relayer.send("offerSettlement", [row.onChainId, user.evmAddress as Address, amount]);
      const indexed = (await settlements.offers(id)).find((o) => o.byPoster === (side === "poster") && o.txHash === tx.hash.toLowerCase());
      const fresh = (await deps.missions.findById(id)) ?? row;
      const offer = indexed
        ? offerView(indexed, remaining(fresh))
        : offerView(
            {
              byPoster: side === "poster", party: user.evmAddress as `0x${string}`, performerAmount: amount, txHash: tx.hash,
              posterAmount: (event(tx, "SettlementOffered")?.posterAmount as bigint | undefined) ?? 0n,
              createdAt: (await deps.chain.publicClient.getBlock({ blockNumber: tx.receipt.blockNumber })).timestamp,
            },
            remaining(fresh),
          );
      return { offer, transactionHash: tx.hash };
    },

    async settlementOffers(user: UserRow, id: string) {
      const row = await mustFind(id);
      sideOf(row, user);
      const rest = remaining(row);
      return { offers: (await settlements.offers(id)).map((o) => offerView(o, rest)) };
    },

    async withdrawSettlement(user: UserRow, id: string) {
      const { relayer } = ready();
      const row = await mustFind(id);
      const side = sideOf(row, user);
      const own = (await settlements.offers(id)).find((o) => o.byPoster === (side === "poster"));
      if (!own) throw new AppError("NO_OFFER", "You have no open settlement offer on this mission");
      await requireSetup(user.evmAddress);
      const tx = await relayer.send("withdrawSettlement", [row.onChainId, user.evmAddress as Address]);
      return { success: true, transactionHash: tx.hash };
    },

    async acceptSettlement(user: UserRow, id: string, input: z.infer<typeof AcceptBody>) {
      const { relayer } = ready();
      const row = await mustFind(id);
      const side = sideOf(row, user);
      await assertSettleable(row);
      const amount = parseAmount(input.performerAmount);
      const theirs = (await settlements.offers(id)).find((o) => o.byPoster !== (side === "poster"));
      if (!theirs) throw new AppError("NO_OFFER", `The ${side === "poster" ? "performer" : "poster"} has no open settlement offer to accept`);
      const offered = theirs.performerAmount;
      if (offered !== amount) {
        throw new AppError("OFFER_CHANGED", `The offer is now performerAmount ${formatAmount(offered)}, not ${formatAmount(amount)}: nothing was sent`, [
          { field: "body.performerAmount", reason: `the current offer is ${formatAmount(offered)}` },
        ]);
      }
      withinRemainder(row, amount, "body.performerAmount");
      await requireSetup(user.evmAddress);
      const tx = await relayer.send("acceptSettlement", [row.onChainId, user.evmAddress as Address, amount]);
      const settled = event(tx, "MissionSettled");
      const payment = await settlements.payment(id, tx.hash);
      const posterAmount = payment ? payment.posterAmount : ((settled?.posterAmount as bigint | undefined) ?? remaining(row) - amount);
      const state: MissionState = settled ? missionState(Number(settled.state)) : amount === 0n ? "Cancelled" : "Completed";
      const disputeId = payment?.disputeId ?? (row.state === "Disputed" ? ((await settlements.dispute(id))?.id ?? null) : null);
      return {
        success: true,
        transactionHash: tx.hash,
        state,
        performerAmount: formatAmount(amount),
        posterAmount: formatAmount(posterAmount),
        settlement: settlementOf(payment, settled?.settlement as Record<string, bigint> | undefined),
        disputeId,
        mission: await mission(id, user),
      };
    },

    async release(user: UserRow, id: string, input: z.infer<typeof PartialBody>) {
      const { relayer } = ready();
      const row = await mustFind(id);
      if (sideOf(row, user) !== "poster") throw new AppError("NOT_POSTER", "Only the poster may release escrow to the performer");
      assertPartialState(row);
      const amount = parseAmount(input.amount);
      withinRemainder(row, amount, "body.amount");
      await requireSetup(user.evmAddress);
      const tx = await relayer.send("releasePartial", [row.onChainId, amount]);
      const released = event(tx, "MissionReleased");
      const payment = await settlements.payment(id, tx.hash);
      return {
        success: true,
        transactionHash: tx.hash,
        amount: formatAmount(amount),
        settlement: settlementOf(payment, released?.settlement as Record<string, bigint> | undefined),
        mission: await mission(id, user),
      };
    },

    async refund(user: UserRow, id: string, input: z.infer<typeof PartialBody>) {
      const { relayer } = ready();
      const row = await mustFind(id);
      if (sideOf(row, user) !== "performer") throw new AppError("NOT_PERFORMER", "Only the performer may refund escrow to the poster");
      assertPartialState(row);
      const amount = parseAmount(input.amount);
      withinRemainder(row, amount, "body.amount");
      await requireSetup(user.evmAddress);
      const tx = await relayer.send("refundPartial", [row.onChainId, amount]);
      return { success: true, transactionHash: tx.hash, amount: formatAmount(amount), mission: await mission(id, user) };
    },
  };
}
