// WebSocket channel /ws (and /v2/ws). Framing: every message both ways is JSON { event, data }.
//   client -> server: subscribe:geohash { geohash }, unsubscribe:geohash { geohash }
//   server -> client: ready { authenticated, address }, subscribed / unsubscribed { geohash },
//                     mission:created { mission }, mission:updated { missionId, state, mission }, error { code, message }
// Auth: optional JWT as `?token=` at the upgrade (a bad token is refused with 401). Anonymous
// connections may subscribe to areas and receive the public (neighbourhood) location only.
// Fan-out across API copies: every copy tails the indexer's chain.journal (monotonic ids, own
// in-memory cursor starting at the current max) every POLL_MS, so a mission created through any
// copy, or directly on-chain, reaches the subscribers of every copy; no copy-to-copy messages.
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import type { Deps } from "../../deps.ts";
import { listView } from "../mission-view.ts";
import { GEOHASH_RE, geohashEncode } from "./geo.ts";
import { isMissionParty, NEIGHBORHOOD_GEOHASH_LENGTH, viewLocation } from "./location-privacy.ts";

export const REALTIME = {
  pollMs: 200,
  heartbeatMs: 30_000,
  /** A client whose unsent data exceeds this is too slow: closed with 1013. */
  maxBufferedBytes: 1 << 20,
  maxSubscriptions: 50,
  maxMessageBytes: 4096,
};

const STATE_EVENTS: Record<string, string> = {
  MISSION_ACCEPTED: "Accepted", MISSION_SUBMITTED: "Submitted", MISSION_COMPLETED: "Completed",
  MISSION_CANCELLED: "Cancelled", MISSION_EXPIRED: "Expired", DISPUTE_RAISED: "Disputed", MISSION_DETAILS_UPDATED: "",
};

interface Client {
  ws: WebSocket;
  address: string | null;
  areas: Set<string>;
  alive: boolean;
}

/** Does a subscription prefix cover the mission? Non-parties match on the public geohash-6 cell only. */
export function areaMatches(prefix: string, exactHash: string, party: boolean): boolean {
  if (party) return exactHash.startsWith(prefix);
  const cell = exactHash.slice(0, NEIGHBORHOOD_GEOHASH_LENGTH);
  return prefix.length <= cell.length ? cell.startsWith(prefix) : prefix.startsWith(cell);
}

export function attachRealtime(server: Server, deps: Deps, opts: Partial<typeof REALTIME> = {}) {
  const cfg = { ...REALTIME, ...opts };
  const log = deps.logger;
  const wss = new WebSocketServer({ noServer: true, maxPayload: cfg.maxMessageBytes });
  const clients = new Set<Client>();
  const journal = `"${deps.env.CHAIN_SCHEMA}".journal`;
  let cursor: string | null = null;
  let stopped = false;

  const send = (c: Client, event: string, data: unknown) => {
    if (c.ws.readyState !== c.ws.OPEN) return;
    if (c.ws.bufferedAmount > cfg.maxBufferedBytes) {
      c.ws.close(1013, "slow consumer");
      return;
    }
    c.ws.send(JSON.stringify({ event, data }));
  };

  const onUpgrade = async (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname !== "/ws" && url.pathname !== "/v2/ws") return;
    let address: string | null = null;
    const token = url.searchParams.get("token");
    if (token) {
      try {
        const claims = await deps.services.auth.verifyToken(token);
        address = claims.address.toLowerCase();
      } catch {
        socket.end("HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n" +
          JSON.stringify({ error: { code: "UNAUTHORIZED", message: "Invalid token" } }));
        return;
      }
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const c: Client = { ws, address, areas: new Set(), alive: true };
      clients.add(c);
      ws.on("pong", () => (c.alive = true));
      ws.on("close", () => clients.delete(c));
      ws.on("error", () => clients.delete(c));
      ws.on("message", (raw) => onMessage(c, raw.toString()));
      send(c, "ready", { authenticated: address !== null, address });
    });
  };

  const onMessage = (c: Client, raw: string) => {
    let msg: { event?: unknown; data?: { geohash?: unknown } };
    try {
      msg = JSON.parse(raw);
    } catch {
      return send(c, "error", { code: "VALIDATION_ERROR", message: "Messages are JSON { event, data }" });
    }
    const g = typeof msg?.data?.geohash === "string" ? msg.data.geohash.toLowerCase() : "";
    if (msg?.event === "subscribe:geohash" || msg?.event === "unsubscribe:geohash") {
      if (!GEOHASH_RE.test(g)) return send(c, "error", { code: "VALIDATION_ERROR", message: "data.geohash: 1..12 geohash characters" });
      if (msg.event === "unsubscribe:geohash") {
        c.areas.delete(g);
        return send(c, "unsubscribed", { geohash: g });
      }
      if (c.areas.size >= cfg.maxSubscriptions && !c.areas.has(g)) {
        return send(c, "error", { code: "VALIDATION_ERROR", message: `At most ${cfg.maxSubscriptions} subscriptions` });
      }
      c.areas.add(g);
      return send(c, "subscribed", { geohash: g });
    }
    send(c, "error", { code: "VALIDATION_ERROR", message: "Unknown event (subscribe:geohash, unsubscribe:geohash)" });
  };

  const dispatch = async (type: string, missionId: string) => {
    const row = await deps.repos.missions.findById(missionId);
    if (!row) return;
    if (type === "MISSION_CREATED") {
      if (row.latitude === null || row.longitude === null) return;
      const exact = geohashEncode(row.latitude, row.longitude, 12);
      for (const c of clients) {
        const party = isMissionParty(c.address, row.poster, row.performer);
        if (![...c.areas].some((a) => areaMatches(a, exact, party))) continue;
        const loc = viewLocation(row.latitude, row.longitude, party);
        send(c, "mission:created", { mission: { ...listView(row, c.address ?? undefined), location: { ...loc, radius: row.radius } } });
      }
      return;
    }
    for (const c of clients) {
      if (!isMissionParty(c.address, row.poster, row.performer)) continue;
      send(c, "mission:updated", { missionId: row.id, state: row.state, mission: listView(row, c.address ?? undefined) });
    }
  };

  const poll = async () => {
    try {
      if (cursor === null) {
        const r = await deps.database.pool.query<{ id: string | null }>(`SELECT max(id)::text AS id FROM ${journal}`);
        cursor = r.rows[0]?.id ?? "0";
        return;
      }
      const r = await deps.database.pool.query<{ id: string; type: string; mission_id: string | null }>(
        `SELECT id::text, type, mission_id FROM ${journal} WHERE id > $1 AND mission_id IS NOT NULL
           AND type = ANY($2) ORDER BY id LIMIT 500`,
        [cursor, ["MISSION_CREATED", ...Object.keys(STATE_EVENTS)]],
      );
      for (const e of r.rows) {
        cursor = e.id;
        if (clients.size > 0) await dispatch(e.type, e.mission_id!).catch((err) => log.warn("ws dispatch failed", { err: String(err) }));
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

  const heartbeat = setInterval(() => {
    for (const c of clients) {
      if (!c.alive) {
        c.ws.terminate();
        clients.delete(c);
        continue;
      }
      c.alive = false;
      c.ws.ping();
    }
  }, cfg.heartbeatMs);
  heartbeat.unref();

  const upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => void onUpgrade(req, socket, head);
  server.on("upgrade", upgrade);

  return {
    clientCount: () => clients.size,
    async close() {
      stopped = true;
      clearTimeout(timer);
      clearInterval(heartbeat);
      server.off("upgrade", upgrade);
      for (const c of clients) c.ws.close(1001, "server shutting down");
      await new Promise<void>((r) => wss.close(() => r()));
      for (const c of clients) c.ws.terminate();
    },
  };
}
export type Realtime = ReturnType<typeof attachRealtime>;
