// WebSocket channel /ws (and /v2/ws). Framing: every message both ways is JSON { event, data }.
//   client -> server: subscribe:geohash { geohash }, unsubscribe:geohash { geohash }
//   server -> client: ready { authenticated, address }, subscribed / unsubscribed { geohash },
//                     mission:created { mission }, mission:updated { missionId, state, mission },
//                     error { code, message, details: [{ field, reason }] }
// Auth: optional JWT as `?token=` at the upgrade (a bad token is refused with 401). Anonymous
// connections may subscribe to areas and receive the public (neighbourhood) location only.
// Fan-out across API copies: every copy tails the indexer's chain.journal (monotonic ids, own
// in-memory cursor starting at the current max) every POLL_MS, so a mission created through any
// copy, or directly on-chain, reaches the subscribers of every copy; no copy-to-copy messages.
// Connections, subscriptions, limits and the fan-out itself: realtime-hub.ts.
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import type { Deps } from "../../deps.ts";
import { createHub, HUB_DEFAULTS, type HubConfig } from "./realtime-hub.ts";
import { NEIGHBORHOOD_GEOHASH_LENGTH } from "./location-privacy.ts";

export const REALTIME = { pollMs: 200, ...HUB_DEFAULTS };
export type RealtimeConfig = typeof REALTIME;

const STATE_EVENTS: Record<string, string> = {
  MISSION_ACCEPTED: "Accepted", MISSION_SUBMITTED: "Submitted", MISSION_COMPLETED: "Completed",
  MISSION_CANCELLED: "Cancelled", MISSION_EXPIRED: "Expired", DISPUTE_RAISED: "Disputed", MISSION_DETAILS_UPDATED: "",
};
const JOURNAL_TYPES = ["MISSION_CREATED", ...Object.keys(STATE_EVENTS)];

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
  const journal = `"${env.CHAIN_SCHEMA}".journal`;
  let cursor: string | null = null;
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

  const dispatch = async (type: string, missionId: string) => {
    const row = await deps.repos.missions.findById(missionId);
    if (!row) return;
    if (type === "MISSION_CREATED") hub.publishCreated(row);
    else hub.publishUpdated(row);
  };

  const poll = async () => {
    try {
      if (cursor === null) {
        const r = await deps.database.pool.query<{ id: string | null }>(`SELECT max(id)::text AS id FROM ${journal}`);
        cursor = r.rows[0]?.id ?? "0";
        return;
      }
      const r = await deps.database.pool.query<{ id: string; type: string; mission_id: string | null }>(
        `SELECT j.id::text, j.type, j.mission_id FROM ${journal} j WHERE j.id > $1 AND j.mission_id IS NOT NULL
           AND j.type = ANY($2) ORDER BY j.id LIMIT 500`,
        [cursor, JOURNAL_TYPES],
      );
      for (const e of r.rows) {
        cursor = e.id;
        if (hub.clientCount() > 0) await dispatch(e.type, e.mission_id!).catch((err) => log.warn("ws dispatch failed", { err: String(err) }));
      }
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code !== "3F000" && code !== "42P01") log.warn("ws journal poll failed", { err: String(err) });
    }
  };

  let timer: NodeJS.Timeout;
  const loop = async () => {
    await poll();
    if (!stopped) timer = setTimeout(loop, cfg.pollMs);
  };
  void loop();

  const upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => void onUpgrade(req, socket, head);
  server.on("upgrade", upgrade);

  return {
    clientCount: () => hub.clientCount(),
    /** The fan-out entry points (what the journal tailer calls after loading the row); used by bench B8. */
    publishCreated: hub.publishCreated,
    publishUpdated: hub.publishUpdated,
    async close() {
      stopped = true;
      clearTimeout(timer);
      server.off("upgrade", upgrade);
      await hub.close();
      await new Promise<void>((r) => wss.close(() => r()));
      hub.terminateAll();
    },
  };
}
export type Realtime = ReturnType<typeof attachRealtime>;
