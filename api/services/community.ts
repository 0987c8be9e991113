// The community area's services: guilds, notifications and push delivery, built in api/deps.ts.
import type { Logger } from "../lib/logger.ts";
import type { ChainContext, Relayer } from "../lib/ports.ts";
import type { NotificationsRepository } from "../repositories/notifications.repository.ts";
import { notificationsService } from "./notifications.service.ts";
import type { GuildsRepository } from "../repositories/guilds.repository.ts";
import { guildsService, type GuildsDeps } from "./guilds.service.ts";
import type { PushDelivery } from "./push-delivery.ts";
import { AppError } from "../lib/errors.ts";
import type { UserRow, UsersRepository } from "../repositories/users.repository.ts";

export function communityServices(deps: {
  guildsRepo: GuildsRepository;
  notificationsRepo: NotificationsRepository;
  users: UsersRepository;
  push: PushDelivery;
  devices: { maxPerUser: number; allowPrivateUrls: boolean };
  chain: ChainContext;
  relayer: Relayer | null;
  setup: GuildsDeps["setup"];
  mission: GuildsDeps["mission"];
  privacy: GuildsDeps["privacy"];
  logger: Logger;
}) {
  const { guildsRepo, push } = deps;
  const guilds = guildsService({ repo: guildsRepo, chain: deps.chain, relayer: deps.relayer, setup: deps.setup, privacy: deps.privacy, mission: deps.mission });
  const notifications = notificationsService({
    repo: deps.notificationsRepo, users: deps.users, push, logger: deps.logger,
    maxDevicesPerUser: deps.devices.maxPerUser, allowPrivatePushUrls: deps.devices.allowPrivateUrls,
  });
  return {
    guilds,
    notifications,
    push,
    /** GUILD_INVITE has no chain event: officers and admins invite through the API (off-chain source key). */
    async invite(inviter: UserRow, guildId: string, address: string) {
      const g = await guilds.get(guildId, inviter);
      if (!g.membership || !(g.membership.isOfficer || g.membership.isAdmin)) {
        throw new AppError("FORBIDDEN", "Inviting requires the officer or admin role in this guild");
      }
      const invitee = address.toLowerCase();
      if (await guildsRepo.member(Number(g.onChainId), invitee).then((m) => m?.active)) {
        throw new AppError("ALREADY_MEMBER", "The invitee is already a member of this guild");
      }
      // The invitee reads the inviter's name only if the inviter lets them.
      const lens = await deps.privacy.lens(invitee, [inviter.evmAddress]);
      const inviterName = lens.field(inviter.evmAddress, "displayName", inviter.displayName) || inviter.evmAddress;
      const rows = await notifications.create(`invite:${g.id}:${invitee}`, null, [
        {
          address: invitee,
          type: "GUILD_INVITE",
          title: `Invitation to ${g.displayName || g.name}`,
          body: `${inviterName} invites you to join the guild ${g.displayName || g.name}.`,
          data: { guildId: g.id, guildName: g.name, inviterId: inviter.id },
        },
      ]);
      return { success: true, invited: invitee, notified: rows.length > 0 };
    },
  };
}
export type CommunityServices = ReturnType<typeof communityServices>;
