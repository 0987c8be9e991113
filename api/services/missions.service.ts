// Mission use cases, reads and creation: indexed chain state joined with off-chain details;
// writes go through the relayer. Checks the chain would also make are done first, for clear errors.
import type { Address } from "viem";
import { missionUuid } from "../../indexer/lib/ids.ts";
import { detailsHash, type MissionDetails } from "../lib/canonical-json.ts";
import { AppError, validationError } from "../lib/errors.ts";
import { MoneyError, parseAmount } from "../lib/money.ts";
import type { MissionFilter } from "../repositories/missions.repository.ts";
import type { UserRow } from "../repositories/users.repository.ts";
import { actionsService } from "./mission-actions.service.ts";
import { eq, event, missionContext, salt, type MissionDeps } from "./mission-context.ts";
import { listView, singleView } from "./mission-view.ts";

export interface CreateMissionInput {
  title: string;
  description: string;
  rewardAmount: string;
  category: string;
  expiresIn: number;
  location?: { latitude: number; longitude: number; radius: number };
  guildId?: string;
  metadata?: Record<string, unknown>;
}
export type PatchMissionInput = Partial<Pick<CreateMissionInput, "title" | "description" | "category" | "location" | "metadata">>;

export function missionsService(deps: MissionDeps) {
  const { chain, missions, details } = deps;
  const { ready, read, mustFind, assertFunds, view } = missionContext(deps);
  return {
    async list(filter: MissionFilter & { posterId?: string; performerId?: string }, viewer?: Address) {
      const resolve = async (idOrAddress?: string) => {
        if (!idOrAddress) return undefined;
        if (/^0x[0-9a-fA-F]{40}$/.test(idOrAddress)) return idOrAddress;
        return (await deps.users.findById(idOrAddress))?.evmAddress ?? "0x0000000000000000000000000000000000000000";
      };
      const f = { ...filter, posterAddress: await resolve(filter.posterId), performerAddress: await resolve(filter.performerId) };
      const { rows, total } = await missions.list(f);
      return { data: rows.map((r) => listView(r, viewer)), meta: { skip: f.skip, take: f.take, total } };
    },

    async get(id: string, viewer?: Address) {
      return singleView(await mustFind(id), viewer);
    },

    async create(user: UserRow, input: CreateMissionInput) {
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
      await assertFunds(poster, reward);
      const d: MissionDetails = {
        title: input.title,
        description: input.description,
        category: input.category,
        location: input.location ?? null,
        metadata: input.metadata ?? {},
        salt: salt(),
      };
      const hash = detailsHash(d);
      await details.insert({
        detailsHash: hash, title: d.title, description: d.description, category: d.category,
        latitude: d.location?.latitude, longitude: d.location?.longitude, radius: d.location?.radius,
        metadata: d.metadata, salt: d.salt, createdBy: user.id,
      });
      const block = await read(() => chain.publicClient.getBlock());
      const expiresAt = block.timestamp + BigInt(input.expiresIn);
      const tx = await relayer.send("createMission", [poster, reward, expiresAt, guildOnChainId, hash]);
      const created = event(tx, "MissionCreated");
      if (!created) throw new AppError("INTERNAL_ERROR", "Internal server error");
      const onChainId = created.missionId as bigint;
      // The event's hash, not ours: a retry after a crash resumes the tx recorded by the first attempt,
      // which committed the first attempt's details row (docs/decisions.md "relayer outbox").
      await details.setOnChainId((created.detailsHash as string | undefined) ?? hash, onChainId.toString());
      const id = missionUuid(chain.chainId, escrow, onChainId);
      const mission = await view(id, poster);
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
      const current = await details.findByHash(row.details_hash);
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
        salt: salt(),
      };
      const hash = detailsHash(d);
      await details.insert({
        detailsHash: hash, onChainId: row.on_chain_id, title: d.title, description: d.description,
        category: d.category, latitude: d.location?.latitude, longitude: d.location?.longitude,
        radius: d.location?.radius, metadata: d.metadata, salt: d.salt, createdBy: user.id,
      });
      const tx = await relayer.send("updateDetails", [BigInt(row.on_chain_id), hash]);
      return { ...(await view(id, user.evmAddress as Address))!, transactionHash: tx.hash };
    },

    ...actionsService(deps),
  };
}
export type MissionsService = ReturnType<typeof missionsService>;
