// WebSocket channel /ws (and /v2/ws). Framing: every message both ways is JSON { event, data }.
//   client -> server: subscribe:geohash { geohash }, unsubscribe:geohash { geohash }
//   server -> client: ready { authenticated, address }, subscribed / unsubscribed { geohash },
//                     mission:created { mission }, mission:updated { missionId, state, mission },
//                     error { code, message, details: [{ field, reason }] }
// Auth: optional JWT as `?token=` at the upgrade (a bad token is refused with 401). Anonymous
// connections may subscribe to areas and receive the public (neighbourhood) location only.
// Fan-out across API copies: every copy follows the discovery read model's change feed
// (api.discovery_changes, written by a trigger in commit order, migration 0014): LISTEN
// discovery_changes wakes it on every commit, and it reads the entries after its in-memory cursor
// (starting at the head when it starts). After a lost connection it re-LISTENs and catches up from
// the same cursor, so every change reaches every copy's subscribers once, whichever copy (or the
// chain directly, through the reactor) made it; no copy-to-copy messages.
// Connections, subscriptions, limits and the fan-out itself: realtime-hub.ts.
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import type { Listening } from "../../db/listen.ts";
import type { Deps } from "../../deps.ts";
import { createHub, HUB_DEFAULTS, type HubConfig } from "./realtime-hub.ts";
import { NEIGHBORHOOD_GEOHASH_LENGTH } from "./location-privacy.ts";

/**
 * `pollMs`: a safety read when no notification came. A NOTIFY is never lost on a live connection and
 * a lost one is re-LISTENed and caught up at once, so this only bounds the damage of a bug: 30 s (it
 * was 2 s: a read through pg every 2 s was a quarter of an idle copy's CPU, on every copy).
 */
export const REALTIME = { pollMs: 30_000, reconnectMs: 500, ...HUB_DEFAULTS };
export type RealtimeConfig = typeof REALTIME;

/**
 * Does a subscription prefix cover the mission? Non-parties match on the public geohash-6 cell only.
 * The reference rule; the hub evaluates it through SubscriptionIndex (realtime-index.ts).
 */
export function areaMatches(prefix: string, exactHash: string, party: boolean): boolean {
  if (party) return exactHash.startsWith(prefix);
  const cell = exactHash.slice(0, NEIGHBORHOOD_GEOHASH_LENGTH);
  return prefix.length <= cell.length ? cell.startsWith(prefix) : prefix.startsWith(cell);
}

function rejectUpgrade(socket: Duplex, status: string, code: string, message: string) {
  socket.end(`HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n` +
    JSON.stringify({ error: { code, message } }));
}

export function attachRealtime(server: Server, deps: Deps, opts: Partial<RealtimeConfig> = {}) {
  const env = deps.env;
  const cfg: RealtimeConfig = {
    ...REALTIME,
    maxSubscriptions: env.WS_MAX_SUBSCRIPTIONS,
    msgRatePerSec: env.WS_MSG_RATE_PER_SEC,
    msgBurst: env.WS_MSG_BURST,
    ...opts,
  };
  const log = deps.logger;
  const hubConfig: HubConfig = cfg;
  const hub = createHub(hubConfig, log);
  const wss = new WebSocketServer({ noServer: true, maxPayload: cfg.maxMessageBytes });
  const changes = deps.repos.discoveryChanges;
  let cursor: bigint | null = null;
  let stopped = false;

  const onUpgrade = async (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node removed its own error listener before emitting 'upgrade': a reset during the token check
    // below would otherwise be an uncaught 'error' and take the process down.
    socket.on("error", () => socket.destroy());
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname !== "/ws" && url.pathname !== "/v2/ws") {
      if (server.listenerCount("upgrade") === 1) rejectUpgrade(socket, "404 Not Found", "NOT_FOUND", "WebSocket endpoint is /ws");
      return;
    }
    let address: string | null = null;
    const token = url.searchParams.get("token");
    if (token) {
      try {
        const claims = await deps.services.auth.verifyToken(token);
        address = claims.address.toLowerCase();
      } catch {
        rejectUpgrade(socket, "401 Unauthorized", "UNAUTHORIZED", "Invalid token");
        return;
      }
    }
    if (stopped || socket.destroyed) return void socket.destroy();
    wss.handleUpgrade(req, socket, head, (ws) => hub.connect(ws, address));
  };

  const dispatch = async (kind: "created" | "updated", missionId: string) => {
    const row = await deps.repos.missions.findById(missionId);
    if (!row) return;
    // One settings read per event, whatever the number of subscribers.
    const settings = await deps.services.privacy.publicSettings([row.poster, row.performer]);
    if (kind === "created") hub.publishCreated(row, settings);
    else hub.publishUpdated(row, settings);
  };

  // One drain at a time; a notification during a drain asks for one more pass.
  let draining: Promise<void> | null = null;
  let again = false;
  const drainOnce = async () => {
    if (cursor === null) cursor = await changes.head();
    for (;;) {
      const batch = await changes.after(cursor, 500);
      for (const e of batch) {
        cursor = e.seq;
        if (hub.clientCount() > 0) await dispatch(e.kind, e.missionId).catch((err) => log.warn("ws dispatch failed", { err: String(err) }));
      }
      if (batch.length < 500 || stopped) return;
    }
  };
  const drain = (): Promise<void> => {
    if (draining) {
      again = true;
      return draining;
    }
    draining = (async () => {
      do {
        again = false;
        await drainOnce().catch((err) => log.warn("ws change feed read failed", { err: String(err) }));
      } while (again && !stopped);
    })().finally(() => {
      draining = null;
    });
    return draining;
  };

  // The wake-up connection (held by the repository for the copy's lifetime); replaced when lost.
  let listening: Listening | null = null;
  let retry: NodeJS.Timeout | undefined;
  const listen = async () => {
    if (stopped) return;
    try {
      // One connection at a time and close() never reports a loss, so a loss is always the current one's.
      const l = await changes.listen(() => void drain(), () => {
        listening = null;
        if (!stopped) retry = setTimeout(() => void listen(), cfg.reconnectMs);
      });
      if (stopped) return l.close();
      listening = l;
      await drain(); // what committed while no connection was listening
    } catch (err) {
      log.warn("ws change feed listen failed", { err: String(err) });
      if (!stopped) retry = setTimeout(() => void listen(), cfg.reconnectMs);
    }
  };
  void listen();

  let timer: NodeJS.Timeout;
  const loop = async () => {
    await drain();
    if (!stopped) timer = setTimeout(loop, cfg.pollMs);
  };
  timer = setTimeout(loop, cfg.pollMs);

  const upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => void onUpgrade(req, socket, head);
  server.on("upgrade", upgrade);

  return {
    clientCount: () => hub.clientCount(),
    /** The fan-out entry points (what the change feed calls after loading the row); used by bench B8. */
    publishCreated: hub.publishCreated,
    publishUpdated: hub.publishUpdated,
    async close() {
      stopped = true;
      clearTimeout(timer);
      clearTimeout(retry);
      const l = listening;
      listening = null;
      l?.close();
      server.off("upgrade", upgrade);
      await hub.close();
      await new Promise<void>((r) => wss.close(() => r()));
      hub.terminateAll();
    },
  };
}
export type Realtime = ReturnType<typeof attachRealtime>;
