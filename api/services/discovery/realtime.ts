// WebSocket channel /ws (and /v2/ws). Framing: every message both ways is JSON { event, data }.
//   client -> server: subscribe:geohash { geohash }, unsubscribe:geohash { geohash }
//   server -> client: ready { authenticated, address }, subscribed / unsubscribed { geohash },
//                     mission:created { mission }, mission:updated { missionId, state, mission },
//                     error { code, message, details: [{ field, reason }] }
// Auth: optional JWT as `?token=` at the upgrade, checked as HTTP checks it (bad, expired or revoked:
// 401), through the HTTP rate limiter and the per-IP / per-user connection caps (429); a socket
// whose session is revoked later is closed with 4401 (realtime-admission.ts, realtime-sessions.ts).
// Anonymous connections may subscribe to areas and receive the public (neighbourhood) location only.
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
import type { Logger } from "../../lib/logger.ts";
import type { DiscoveryChangesRepository } from "../../repositories/discovery-read-model.repository.ts";
import type { MissionsRepository } from "../../repositories/missions.repository.ts";
import type { AuthService } from "../auth.service.ts";
import type { PrivacyService } from "../privacy.ts";
import type { RateLimiter } from "../rate-limit.service.ts";
import { upgradeAdmission, type Refusal } from "./realtime-admission.ts";
import { createHub, HUB_DEFAULTS, type HubConfig } from "./realtime-hub.ts";
import { connectionCaps, SESSION_ENDED, watchSessions, type SessionSource } from "./realtime-sessions.ts";
import { NEIGHBORHOOD_GEOHASH_LENGTH } from "./location-privacy.ts";

/**
 * `pollMs`: a safety read when no notification came. A NOTIFY is never lost on a live connection and
 * a lost one is re-LISTENed and caught up at once, so this only bounds the damage of a bug: 30 s (it
 * was 2 s: a read through pg every 2 s was a quarter of an idle copy's CPU, on every copy).
 */
export const REALTIME = { pollMs: 30_000, reconnectMs: 500, ...HUB_DEFAULTS };
export type RealtimeConfig = typeof REALTIME;

/** What the channel uses (built in api/deps/workers.ts). */
export interface RealtimePorts {
  logger: Logger;
  /** The discovery read model's change feed: what to fan out, and the wake-ups. */
  changes: Pick<DiscoveryChangesRepository, "head" | "after" | "listen">;
  missions: Pick<MissionsRepository, "findById">;
  privacy: Pick<PrivacyService, "publicSettings">;
  /** The upgrade is admitted as HTTP admits a request: same token check, same rate limiter. */
  auth: Pick<AuthService, "authenticate">;
  rateLimiter: Pick<RateLimiter, "hit">;
  onRateLimited?: () => void;
  /** Revocations and session epochs (the sessions repository). */
  sessions: SessionSource;
  settings: {
    maxSubscriptions: number;
    msgRatePerSec: number;
    msgBurst: number;
    maxConnectionsPerIp: number;
    maxConnectionsPerUser: number;
    sessionRecheckMs: number;
    trustProxy: boolean;
  };
}

/**
 * Does a subscription prefix cover the mission? Non-parties match on the public geohash-6 cell only.
 * The reference rule; the hub evaluates it through SubscriptionIndex (realtime-index.ts).
 */
export function areaMatches(prefix: string, exactHash: string, party: boolean): boolean {
  if (party) return exactHash.startsWith(prefix);
  const cell = exactHash.slice(0, NEIGHBORHOOD_GEOHASH_LENGTH);
  return prefix.length <= cell.length ? cell.startsWith(prefix) : prefix.startsWith(cell);
}

const REASONS: Record<number, string> = { 401: "Unauthorized", 404: "Not Found", 429: "Too Many Requests", 503: "Service Unavailable" };

function rejectUpgrade(socket: Duplex, r: Refusal) {
  const extra = Object.entries(r.headers ?? {}).map(([k, v]) => `${k}: ${v}\r\n`).join("");
  socket.end(`HTTP/1.1 ${r.status} ${REASONS[r.status] ?? "Error"}\r\nContent-Type: application/json\r\n${extra}Connection: close\r\n\r\n` +
    JSON.stringify({ error: { code: r.code, message: r.message } }));
}

/** The /ws channel, built but not serving: attach() starts it on the HTTP server, close() stops it. */
export function realtimeChannel(ports: RealtimePorts, opts: Partial<RealtimeConfig> = {}) {
  let live: Realtime | null = null;
  return {
    attach(server: Server): Realtime {
      if (live) throw new Error("the realtime channel is already attached");
      return (live = attachRealtime(server, ports, opts));
    },
    async close() {
      const l = live;
      live = null;
      await l?.close();
    },
  };
}
export type RealtimeChannel = ReturnType<typeof realtimeChannel>;

export function attachRealtime(server: Server, ports: RealtimePorts, opts: Partial<RealtimeConfig> = {}) {
  const s = ports.settings;
  const cfg: RealtimeConfig = {
    ...REALTIME,
    maxSubscriptions: s.maxSubscriptions,
    msgRatePerSec: s.msgRatePerSec,
    msgBurst: s.msgBurst,
    ...opts,
  };
  const log = ports.logger;
  const hubConfig: HubConfig = cfg;
  const hub = createHub(hubConfig, log);
  const wss = new WebSocketServer({ noServer: true, maxPayload: cfg.maxMessageBytes });
  const changes = ports.changes;
  const admit = upgradeAdmission({
    auth: ports.auth,
    rateLimiter: ports.rateLimiter,
    caps: connectionCaps(s.maxConnectionsPerIp, s.maxConnectionsPerUser),
    trustProxy: s.trustProxy,
    onRateLimited: ports.onRateLimited,
  });
  const sessions = watchSessions(ports.sessions, { recheckMs: s.sessionRecheckMs, reconnectMs: cfg.reconnectMs, logger: log });
  let cursor: bigint | null = null;
  let stopped = false;

  const onUpgrade = async (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node removed its own error listener before emitting 'upgrade': a reset during the token check
    // below would otherwise be an uncaught 'error' and take the process down.
    socket.on("error", () => socket.destroy());
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname !== "/ws" && url.pathname !== "/v2/ws") {
      if (server.listenerCount("upgrade") === 1) rejectUpgrade(socket, { status: 404, code: "NOT_FOUND", message: "WebSocket endpoint is /ws" });
      return;
    }
    let admitted: Awaited<ReturnType<typeof admit>>;
    try {
      admitted = await admit(req, url.searchParams.get("token"));
    } catch (err) {
      // The database or the shared rate-limit store is unreachable: retryable, as on HTTP.
      log.warn("ws upgrade check failed", { err: String(err) });
      return rejectUpgrade(socket, { status: 503, code: "DATABASE_UNAVAILABLE", message: "The database is unavailable; retry shortly", headers: { "Retry-After": "1" } });
    }
    if ("code" in admitted) return rejectUpgrade(socket, admitted);
    if (stopped || socket.destroyed) {
      admitted.release();
      return void socket.destroy();
    }
    // The raw socket closes however the connection ends (handshake refused by ws, client gone, close).
    socket.once("close", admitted.release);
    wss.handleUpgrade(req, socket, head, (ws) => {
      hub.connect(ws, admitted.address);
      const s = admitted.session;
      if (!s) return;
      const unwatch = sessions.add({
        userId: s.userId,
        epoch: s.claims.sessionEpoch,
        expiresAtMs: s.claims.expiresAt * 1000,
        end: (reason) => ws.close(SESSION_ENDED, reason),
      });
      ws.once("close", unwatch);
    });
  };

  const dispatch = async (kind: "created" | "updated", missionId: string) => {
    const row = await ports.missions.findById(missionId);
    if (!row) return;
    // One settings read per event, whatever the number of subscribers.
    const settings = await ports.privacy.publicSettings([row.poster, row.performer]);
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
    /** Re-checks every open session now (what the periodic pass does). */
    recheckSessions: () => sessions.recheck(),
    async close() {
      stopped = true;
      sessions.close();
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
