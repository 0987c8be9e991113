import type { AppRouteHandler } from "../../app-types.ts";
import type * as routes from "./system.routes.ts";

export const health: AppRouteHandler<typeof routes.health> = async (c) => {
  const deps = c.get("deps");
  const database = await deps.repos.health.reachable();
  const [idx, keys] = await Promise.all([deps.services.indexer.status(), deps.relayer?.balances(true) ?? []]);
  const relayer = keys.map((k) => ({ address: k.address, balanceWei: k.balanceWei?.toString() ?? null, low: k.low, empty: k.empty }));
  const checks = { database, indexer: { ready: idx.ready, block: idx.block?.toString() ?? null }, feedIndex: deps.services.discovery.feedIndexStatus(), relayer };
  // A key low on ETH still serves: the service is up, but someone must refund it.
  if (database && idx.ready) return c.json({ status: relayer.some((k) => k.low) ? ("degraded" as const) : ("ok" as const), checks }, 200);
  const code = database ? "INDEXER_UNAVAILABLE" : "INTERNAL_ERROR";
  const message = database ? "The indexer has not caught up yet" : "The database is unreachable";
  return c.json({ error: { code, message }, checks }, 503);
};

export const config: AppRouteHandler<typeof routes.config> = async (c) => {
  const { chain } = c.get("deps");
  const d = chain.deployment;
  const contracts = d
    ? Object.fromEntries(Object.entries(d.contracts).map(([name, v]) => [name, v.address as string]))
    : {};
  return c.json(
    {
      chainId: chain.chainId,
      rpcUrl: chain.rpcUrl,
      relayer: d?.relayer ?? null,
      contracts,
      ratingSchemaUid: d?.ratingSchemaUid ?? null,
      explorerUrl: chain.explorerUrl,
    },
    200,
  );
};
