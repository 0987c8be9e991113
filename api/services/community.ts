// The community area's services, built once per deps object (no edits to api/deps.ts).
import type { Deps } from "../deps.ts";
import { notificationsRepository } from "../repositories/notifications.repository.ts";
import { notificationsService } from "./notifications.service.ts";
import { guildsRepository } from "../repositories/guilds.repository.ts";
import { guildsService } from "./guilds.service.ts";
import { webPushDelivery, type PushDelivery } from "./push-delivery.ts";
import { AppError } from "../lib/errors.ts";
import type { UserRow } from "../repositories/users.repository.ts";

const cache = new WeakMap<Deps, ReturnType<typeof build>>();

function build(deps: Deps, push?: PushDelivery) {
  const notificationsRepo = notificationsRepository(deps.database.db);
  const delivery =
    push ??
    webPushDelivery({
      publicKey: deps.env.VAPID_PUBLIC_KEY,
      privateKey: deps.env.VAPID_PRIVATE_KEY,
      subject: deps.env.VAPID_SUBJECT,
      logger: deps.logger,
    });
  const guildsRepo = guildsRepository(deps.database.pool, deps.env.CHAIN_SCHEMA);
  return {
    guildsRepo,
    guilds: guildsService({
      repo: guildsRepo,
      chain: deps.chain,
      relayer: deps.relayer,
      mission: (id, viewer) => deps.services.missions.get(id, viewer) as never,
    }),
    notificationsRepo,
    push: delivery,
    notifications: notificationsService({ repo: notificationsRepo, users: deps.repos.users, push: delivery, logger: deps.logger }),
  };
}

/** GUILD_INVITE has no chain event: officers and admins invite through the API (off-chain source key). */
export async function inviteToGuild(s: ReturnType<typeof community>, inviter: UserRow, guildId: string, address: string) {
  const g = await s.guilds.get(guildId, inviter);
  if (!g.membership || !(g.membership.isOfficer || g.membership.isAdmin)) {
    throw new AppError("FORBIDDEN", "Inviting requires the officer or admin role in this guild");
  }
  const invitee = address.toLowerCase();
  if (await s.guildsRepo.member(Number(g.onChainId), invitee).then((m) => m?.active)) {
    throw new AppError("ALREADY_MEMBER", "The invitee is already a member of this guild");
  }
  const rows = await s.notifications.create(`invite:${g.id}:${invitee}`, null, [
    {
      address: invitee,
      type: "GUILD_INVITE",
      title: `Invitation to ${g.displayName || g.name}`,
      body: `${inviter.displayName || inviter.evmAddress} invites you to join the guild ${g.displayName || g.name}.`,
      data: { guildId: g.id, guildName: g.name, inviterId: inviter.id },
    },
  ]);
  return { success: true, invited: invitee, notified: rows.length > 0 };
}

export function community(deps: Deps) {
  let s = cache.get(deps);
  if (!s) {
    s = build(deps);
    cache.set(deps, s);
  }
  return s;
}
