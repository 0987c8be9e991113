// Guild invitations: GUILD_INVITE has no chain event, so officers and admins invite through the API
// (an off-chain notification keyed by guild and invitee). Built from the guilds and notifications
// services in the composition root (api/deps.ts).
import { AppError } from "../lib/errors.ts";
import type { GuildsRepository } from "../repositories/guilds.repository.ts";
import type { UserRow } from "../repositories/users.repository.ts";
import type { GuildsService } from "./guilds.service.ts";
import type { NotificationsService } from "./notifications.service.ts";
import type { PrivacyService } from "./privacy.ts";

export function guildInvites(deps: {
  guilds: Pick<GuildsService, "get">;
  notifications: Pick<NotificationsService, "create">;
  guildsRepo: Pick<GuildsRepository, "member">;
  privacy: Pick<PrivacyService, "lens">;
}) {
  const { guilds, notifications, guildsRepo } = deps;
  return {
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
