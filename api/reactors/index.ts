// The reactors the runner drives. Another area adds its reactor with one line in `reactors`
// (or by exporting `achievementsReactor` from ./achievements.ts, picked up below when present).
import type { Logger } from "../lib/logger.ts";
import { notificationsReactor } from "./notifications.ts";
import { achievementsReactor } from "./achievements.ts";
import { webhooksReactor } from "./webhooks.ts";
import { discoveryReactor } from "./discovery.ts";
import { resolverGrantsReactor } from "./resolver-grants.ts";
import type { Reactor } from "./types.ts";

export const reactors: Reactor[] = [notificationsReactor, achievementsReactor, webhooksReactor, discoveryReactor, resolverGrantsReactor as Reactor];

const isReactor = (v: unknown): v is Reactor =>
  !!v && typeof v === "object" && typeof (v as Reactor).name === "string" && typeof (v as Reactor).handle === "function";

/** `reactors` plus the profile area's achievements reactor if its module exists and is not listed. */
export async function loadReactors(logger: Logger): Promise<Reactor[]> {
  const list = [...reactors];
  const path = "./achievements.ts";
  try {
    const mod = (await import(/* @vite-ignore */ path)) as Record<string, unknown>;
    const found = [mod.achievementsReactor, mod.default, ...Object.values(mod)].find(isReactor);
    if (found && !list.some((r) => r.name === found.name)) list.push(found);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code !== "ERR_MODULE_NOT_FOUND") logger.warn("achievements reactor not loaded", { err: err instanceof Error ? err.message : String(err) });
  }
  return list;
}
