// The community area's services, built once per deps object (no edits to api/deps.ts).
import type { Deps } from "../deps.ts";
import { notificationsRepository } from "../repositories/notifications.repository.ts";
import { notificationsService } from "./notifications.service.ts";
import { guildsRepository } from "../repositories/guilds.repository.ts";
import { guildsService } from "./guilds.service.ts";
import { webPushDelivery, type PushDelivery } from "./push-delivery.ts";

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

export function community(deps: Deps) {
  let s = cache.get(deps);
  if (!s) {
    s = build(deps);
    cache.set(deps, s);
  }
  return s;
}
