// Mission use cases, reads and creation: indexed chain state joined with off-chain details;
// writes go through the relayer. Checks the chain would also make are done first, for clear errors.
import type { Address } from "viem";
import type { z } from "zod";
import { hasUnlock, levelRequiredFor, missionUuid, MoneyError, parseAmount } from "../../domain/index.ts";
import { canonicalJson, detailsHash, type MissionDetails } from "../lib/canonical-json.ts";
import { AppError, validationError } from "../lib/errors.ts";
import type { MissionDetailsRow } from "../repositories/mission-details.repository.ts";
import type { MissionFilter } from "../repositories/missions.repository.ts";
import type { UserRow } from "../repositories/users.repository.ts";
import type { CreateBody, PatchBody } from "../routes/missions/missions.schemas.ts";
import { actionsService } from "./mission-actions.service.ts";
import { moneyService, type MoneyDeps } from "./mission-money.service.ts";
import { eq, missionContext, salt } from "./mission-context.ts";
import { whenMined } from "./relayer/index.ts";
import { listView, missionParties, singleView, type MissionView } from "./mission-view.ts";
import type { JsonText } from "../lib/json-text.ts";
import { mark } from "../lib/stage-trace.ts";
import { lensOf, settingsFrom } from "./privacy.ts";

/** The bodies of POST and PATCH /missions, as the routes' schemas validate them. */
export type CreateMissionInput = z.infer<typeof CreateBody>;
export type PatchMissionInput = z.infer<typeof PatchBody>;

export function missionsService(deps: MoneyDeps) {
  const { chain, missions, details } = deps;
  const { ready, read, mustFind, assertFunds, view, requireSetup } = missionContext(deps);
  /** The timestamp of the last head a create read (0: none yet), for the expiry of its estimate ahead. */
  let headSeen = 0n;
  // The head a create's expiry counts from, read at once on the unbatched client (through the batch
  // it left a timer tick later, after the create's other work, and was the last check to finish);
  // creates arriving while a read is in flight share it (what a shared batch did), so a burst still
  // makes one call.
  let headRead: Promise<Awaited<ReturnType<typeof chain.publicClient.getBlock>>> | null = null;
  const latestHead = () =>
    (headRead ??= read(() => (chain.directClient ?? chain.publicClient).getBlock()).finally(() => (headRead = null)));
  return {
    async list(filter: MissionFilter & { posterId?: string; performerId?: string }, viewer?: Address) {
      const resolve = async (idOrAddress?: string) => {
        if (!idOrAddress) return undefined;
        if (/^0x[0-9a-fA-F]{40}$/.test(idOrAddress)) return idOrAddress;
        return (await deps.users.findById(idOrAddress))?.evmAddress ?? "0x0000000000000000000000000000000000000000";
      };
      const f = { ...filter, posterAddress: await resolve(filter.posterId), performerAddress: await resolve(filter.performerId) };
      const empty = { data: [], meta: { skip: f.skip, take: f.take, total: 0 } };
      // A hidden mission history leaves what the public feed and map show anyway: a poster's Open
      // missions. A performer's missions are history by definition (Open ones have no performer).
      const targets = [f.posterAddress, f.performerAddress].filter((a): a is string => a !== undefined);
      if (targets.length > 0) {
        const lens = await deps.privacy.lens(viewer, targets);
        if (f.performerAddress && !lens.shows(f.performerAddress, "missionHistory")) return empty;
        if (f.posterAddress && !lens.shows(f.posterAddress, "missionHistory")) {
          if (f.state && f.state !== "Open") return empty;
          f.state = "Open";
        }
      }
      const { rows, total } = await missions.list(f);
      const lens = await deps.privacy.lens(viewer, missionParties(rows));
      return { data: rows.map((r) => listView(r, viewer, lens)), meta: { skip: f.skip, take: f.take, total } };
    },

    async get(id: string, viewer?: Address) {
      // One statement: the row and its parties' privacy settings for this viewer (the same settings
      // deps.privacy.lens() reads; a party without an API account has none, the viewer needs none).
      const me = viewer ? viewer.toLowerCase() : null;
      const row = await missions.findForViewer(id, me);
      if (!row) throw new AppError("MISSION_NOT_FOUND", `Mission ${id} not found`);
      const rows: { address: string; permissions: unknown; sharesGuild: boolean }[] = [];
      // A party with an account joined its users row (posterId / performerId), whose address is the party's.
      const poster = row.poster.toLowerCase();
      if (row.posterId !== null && poster !== me) rows.push({ address: poster, permissions: row.posterPermissions, sharesGuild: row.posterSharesGuild });
      const performer = row.performer?.toLowerCase() ?? null;
      if (row.performerId !== null && performer !== null && performer !== me) rows.push({ address: performer, permissions: row.performerPermissions, sharesGuild: row.performerSharesGuild });
      return singleView(row, viewer, lensOf(me, settingsFrom(rows)));
    },

    /**
     * `{"data": get()'s view}` as JSON text, built by PostgreSQL in one statement with the same privacy
     * rules (missions.repository.ts viewJson; GET /missions/:id sends it on without parsing it).
     */
    async viewJson(id: string, viewer?: Address): Promise<JsonText<{ data: MissionView }>> {
      const json = await missions.viewJson(id, viewer ? viewer.toLowerCase() : null);
      if (json === null) throw new AppError("MISSION_NOT_FOUND", `Mission ${id} not found`);
      return json as JsonText<{ data: MissionView }>;
    },

    async create(user: UserRow, input: CreateMissionInput) {
      const now = Date.now(); // the "now" expiresIn counts from
      const { relayer, escrow } = ready();
      let reward: bigint;
      try {
        reward = parseAmount(input.rewardAmount);
      } catch (err) {
        throw validationError([{ field: "body.rewardAmount", reason: (err as MoneyError).message }]);
      }
      if (reward === 0n) throw validationError([{ field: "body.rewardAmount", reason: "must be at least 0.000001" }]);
      let guildOnChainId = 0;
      if (input.guildId) {
        const g = await missions.guildOnChainId(input.guildId);
        if (g === null) throw validationError([{ field: "body.guildId", reason: "guild not found" }]);
        guildOnChainId = g;
      }
      const poster = user.evmAddress as Address;
      if (input.premium) {
        const { level } = await missions.eligibilityFacts(poster);
        if (!hasUnlock(level, "premium_missions")) {
          const need = levelRequiredFor("premium_missions");
          throw new AppError("INELIGIBLE", `Posting a premium mission needs level ${need}`, [
            { field: "level", reason: `premium missions need level ${need}; the poster is level ${level}` },
          ]);
        }
      }
      const d: MissionDetails = {
        title: input.title,
        description: input.description,
        category: input.category,
        location: input.location ?? null,
        metadata: input.metadata ?? {},
        minReputation: input.minReputation ?? null,
        premium: input.premium ?? false,
        salt: salt(),
      };
      const hash = detailsHash(d);
      // The checks (below), the block (for the expiry) and the details insert are independent: they
      // run at once, not in a row (on timed blocks every ms before the broadcast is a chance to miss
      // the next block). A refused create takes its details row back.
      mark("validated");
      const latest = latestHead();
      void latest.then(() => mark("c:block"), () => {});
      // The send's outbox lookup, its budget charge and its estimate (the simulation), beside these
      // checks (a refused create takes the charge back). The estimate
      // is of the call with the expiry the last head seen gives; the send uses it only if the fresh
      // head gives the same expiry (the common case: the wall clock decides), else estimates again.
      const ahead = relayer.lookAhead?.("createMission", [poster, reward, expiryFor(headSeen, input.expiresIn, now), guildOnChainId, hash]);
      const inserted = details.insert({
        detailsHash: hash, title: d.title, description: d.description, category: d.category,
        latitude: d.location?.latitude, longitude: d.location?.longitude, radius: d.location?.radius,
        metadata: d.metadata, minReputation: d.minReputation, premium: d.premium, salt: d.salt, createdBy: user.id,
      });
      // The set-up gate and the funds check are checks the escrow makes too (the operator's
      // authorisation, then the reward's transfer from the poster): when the look-ahead's simulation of
      // this create passed, the chain has made them, and their three reads are skipped. Otherwise
      // (a revert, no simulation) they run, for the clear error they give, as before.
      const simulated = ahead && relayer.simulated ? relayer.simulated(ahead) : Promise.resolve(false);
      void simulated.then(() => mark("c:simulated"));
      void inserted.then(() => mark("c:details"), () => {});
      const chainChecks = simulated.then(async (ok) => {
        if (ok) return;
        // The gate reads the escrow's allowance; the funds check takes that read instead of its own.
        const gate = requireSetup(poster, reward);
        const both = await Promise.allSettled([gate, assertFunds(poster, reward, gate)]);
        const first = both.find((r) => r.status === "rejected");
        if (first) throw first.reason; // a setup error wins over a funds error
      });
      const checks = await Promise.allSettled([chainChecks, latest, inserted]);
      mark("checks");
      const refused = checks.find((r) => r.status === "rejected");
      if (refused) {
        await Promise.all([
          checks[2]!.status === "fulfilled" ? details.removeUnbound(hash).catch(() => {}) : undefined,
          ahead ? relayer.release?.(ahead).catch(() => {}) : undefined, // the budget's charge back
        ]);
        throw refused.reason;
      }
      const block = await latest;
      headSeen = block.timestamp;
      const expiresAt = expiryFor(block.timestamp, input.expiresIn, now);
      // The details row is bound to the new mission as soon as the receipt names it, while the indexer
      // catches up: the read model's refresh after indexing then has the details, and no second
      // refresh is needed. The event's hash, not ours: a retry after a crash resumes the tx recorded
      // by the first attempt, which committed the first attempt's details row (docs/decisions.md
      // "relayer outbox").
      const bindTo = (events: readonly { eventName: string; args: unknown }[]) => {
        const c = events.find((e) => e.eventName === "MissionCreated")?.args as { missionId: bigint; detailsHash?: string } | undefined;
        return c ? { hash: c.detailsHash ?? hash, mission: { escrowAddress: escrow, onChainId: c.missionId.toString() } } : null;
      };
      let bound: string | null = null; // the id of the mission the details row was bound to
      // Bound and indexed: the response's view (the indexed rows and the bound details) is read beside
      // the relayer's read-model catch-up, which changes neither.
      let early: Awaited<ReturnType<typeof view>> | undefined;
      const tx = await whenMined(async (events) => {
        const b = bindTo(events);
        if (!b) return;
        await details.bind(b.hash, b.mission);
        bound = missionUuid(chain.chainId, escrow, BigInt(b.mission.onChainId));
      }, () => relayer.send("createMission", [poster, reward, expiresAt, guildOnChainId, hash], undefined, ahead), async () => {
        if (bound) early = await view(bound, poster);
      });
      mark("sent");
      const b = bindTo(tx.events);
      if (!b) throw new AppError("INTERNAL_ERROR", "Internal server error");
      const onChainId = BigInt(b.mission.onChainId);
      // Bound and indexed: the relayer's read-model catch-up (after indexing) saw the details. Else
      // the binding with its own read-model refresh, as before.
      if (!bound || !tx.indexed) await details.setOnChainId(b.hash, b.mission);
      const id = missionUuid(chain.chainId, escrow, onChainId);
      const mission = bound === id && tx.indexed && early ? early : await view(id, poster);
      return {
        ...(mission ?? {}),
        id,
        onChainId: onChainId.toString(),
        escrowAddress: escrow.toLowerCase(),
        transactionHash: tx.hash,
      };
    },

    async patch(user: UserRow, id: string, input: PatchMissionInput) {
      const { relayer } = ready();
      const row = await mustFind(id);
      if (!eq(row.poster, user.evmAddress)) throw new AppError("NOT_POSTER", "Only the poster may edit a mission");
      if (row.state !== "Open") throw new AppError("MISSION_NOT_OPEN", `The mission is ${row.state}, not Open`);
      await requireSetup(user.evmAddress);
      const current = await details.findForMission(row.detailsHash, { escrowAddress: row.escrowAddress, onChainId: row.onChainId.toString() });
      const location =
        input.location ??
        (current?.latitude != null && current.longitude != null && current.radius != null
          ? { latitude: current.latitude, longitude: current.longitude, radius: current.radius }
          : null);
      const d: MissionDetails = {
        title: input.title ?? current?.title ?? "",
        description: input.description ?? current?.description ?? "",
        category: input.category ?? current?.category ?? "",
        location,
        metadata: input.metadata ?? (current?.metadata as Record<string, unknown> | undefined) ?? {},
        // The eligibility terms are fixed at creation: an edit carries them over.
        minReputation: current?.minReputation ?? null,
        premium: current?.premium ?? false,
        salt: salt(),
      };
      // The salt makes every hash new, so the content decides: an unchanged edit would spend a
      // relayed transaction on nothing.
      if (current && sameContent(d, current)) {
        throw new AppError("INVALID_STATE", "Nothing to update: the mission's details already have these values");
      }
      const hash = detailsHash(d);
      await details.insert({
        detailsHash: hash, onChainId: row.onChainId.toString(), escrowAddress: row.escrowAddress.toLowerCase(), title: d.title, description: d.description,
        category: d.category, latitude: d.location?.latitude, longitude: d.location?.longitude,
        radius: d.location?.radius, metadata: d.metadata, minReputation: d.minReputation, premium: d.premium, salt: d.salt, createdBy: user.id,
      });
      const tx = await relayer.send("updateDetails", [row.onChainId, hash]);
      return { ...(await view(id, user.evmAddress as Address))!, transactionHash: tx.hash };
    },

    ...actionsService(deps),
    ...moneyService(deps),
  };
}
export type MissionsService = ReturnType<typeof missionsService>;

/** True when `d` has the content (everything but the salt) of the stored details `row`. */
function sameContent(d: MissionDetails, row: MissionDetailsRow): boolean {
  const stored = {
    title: row.title, description: row.description, category: row.category,
    location: row.latitude != null && row.longitude != null && row.radius != null
      ? { latitude: row.latitude, longitude: row.longitude, radius: row.radius }
      : null,
    metadata: row.metadata,
  };
  const next = { title: d.title, description: d.description, category: d.category, location: d.location, metadata: d.metadata };
  return canonicalJson(next) === canonicalJson(stored);
}

/** The escrow's shortest mission (`MissionEscrow.MIN_DURATION`), counted from the block that mines it. */
const ESCROW_MIN_DURATION = 60n;
/** How much later than "now" a relayed transaction may be mined (a few blocks on a 2–12 s chain). */
const INCLUSION_ALLOWANCE = 15n;

/**
 * `expiresIn` counts from now: the later of the chain head's time (a chain may run ahead of this host)
 * and the wall clock (an idle anvil's head is old, and its next block takes the wall clock's time).
 * Near the escrow's minimum the deadline moves out by the inclusion allowance, so the transaction
 * never reverts for being mined a few seconds after it was built.
 */
export function expiryFor(headTimestamp: bigint, expiresIn: number, nowMs = Date.now()): bigint {
  const wall = BigInt(Math.ceil(nowMs / 1000));
  const now = headTimestamp > wall ? headTimestamp : wall;
  const asked = now + BigInt(expiresIn);
  const earliestSafe = now + ESCROW_MIN_DURATION + INCLUSION_ALLOWANCE;
  return asked > earliestSafe ? asked : earliestSafe;
}
