// Membership changes, idempotent: memberCount moves only when `active` actually flips.
import { guildMembers, guilds } from "ponder:schema";
import { guildUuid, memberId, roleFlags } from "../../domain/index.ts";
import type { Journal } from "./journal.ts";
import { type Addr, type Ctx, type EventLike, lc } from "./types.ts";

export async function setMembership(
  context: Ctx,
  event: EventLike,
  j: Journal | null,
  guildId: number,
  account: Addr,
  setActive: boolean | null, // null: keep (a roles change never joins or removes anyone)
  roles?: number,
) {
  const id = memberId(guildId, account);
  const gid = guildUuid(context.chain.id, event.log.address, guildId);
  const old = await context.db.find(guildMembers, { id });
  const wasActive = old?.active === true;
  const active = setActive ?? (old ? old.active : true);
  const nextRoles = active ? (roles ?? old?.roles ?? 0) : 0;
  const t = event.block.timestamp;
  const values = {
    ...roleFlags(nextRoles),
    active,
    joinedAt: active && !wasActive ? t : (old?.joinedAt ?? t),
    leftAt: active ? null : t,
    updatedBlock: event.block.number,
  };
  if (old) await context.db.update(guildMembers, { id }).set(values);
  else
    await context.db
      .insert(guildMembers)
      .values({ id, guildOnChainId: guildId, guildUuid: gid, account: lc(account), guildXP: 0, ...values });
  if (wasActive !== active) {
    await context.db
      .update(guilds, { id: gid })
      .set((g) => ({ memberCount: g.memberCount + (active ? 1 : -1), updatedBlock: event.block.number }));
    await j?.emit(
      active ? "MEMBER_JOINED" : "MEMBER_LEFT",
      { guildId, guildUuid: gid, member: lc(account) },
      { account },
    );
  }
}
