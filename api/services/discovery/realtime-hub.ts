// The WebSocket hub: connections, their subscriptions and the fan-out of mission events. No HTTP,
// no database: realtime.ts does the upgrade (JWT) and feeds the hub from chain.journal; the bench
// (B8) drives `publishCreated` directly.
//
// Fan-out cost is what B8 measures (5,000 clients), so:
//   - each message is serialised once per privacy class (public, or per party address: at most the
//     poster and the performer), to a Buffer that ws frames without re-encoding per client;
//   - subscribers are found through SubscriptionIndex (map lookups by geohash prefix), parties of
//     an update through an address index: no scan of every connection;
//   - the per-client work is a synchronous buffer check + ws.send (no await, no JSON per client);
//   - backpressure: a client with more than maxBufferedBytes unsent is closed (1013) instead of
//     growing the server's memory.
// Hardening: every client frame costs a token of a per-connection bucket (burst, rate/s);
// a frame without a token is dropped with an error RATE_LIMITED, and after maxViolations such frames
// (no full refill in between) the connection is closed with 1008. Bad frames (binary, non-JSON, not
// an object, unknown event, bad or overlong geohash) get an error frame with field + reason; frames
// over maxMessageBytes are refused by ws itself (close 1009). Nothing a client sends can throw out of
// the handlers.
import type { RawData, WebSocket } from "ws";
import type { Logger } from "../../lib/logger.ts";
import type { ErrorCode } from "../../lib/errors.ts";
import type { MissionRow } from "../../repositories/missions.repository.ts";
import { listView } from "../mission-view.ts";
import { lensOf, type PrivacySettings } from "../privacy.ts";
import { GEOHASH_RE, geohashEncode } from "./geo.ts";
import { viewLocation } from "./location-privacy.ts";
import { SubscriptionIndex, type Subscriber } from "./realtime-index.ts";

export interface HubConfig {
  heartbeatMs: number;
  /** A client whose unsent data exceeds this is too slow: closed with 1013. */
  maxBufferedBytes: number;
  maxSubscriptions: number;
  /** Largest client frame (ws closes the connection with 1009 above it). */
  maxMessageBytes: number;
  /** Client -> server frames: sustained rate per connection ... */
  msgRatePerSec: number;
  /** ... and burst. */
  msgBurst: number;
  /** Over-limit frames tolerated (each answered with RATE_LIMITED) before the close with 1008. */
  maxViolations: number;
}

export const HUB_DEFAULTS: HubConfig = {
  heartbeatMs: 30_000,
  maxBufferedBytes: 1 << 20,
  maxSubscriptions: 50,
  maxMessageBytes: 4096,
  msgRatePerSec: 10,
  msgBurst: 20,
  maxViolations: 10,
};

/** Close codes the hub uses (RFC 6455 §7.4.1). */
export const CLOSE = { goingAway: 1001, policy: 1008, tryAgainLater: 1013 } as const;

export interface HubClient extends Subscriber {
  ws: WebSocket;
  /** Lower-case address of a JWT-authenticated connection, else null (anonymous). */
  address: string | null;
  alive: boolean;
  tokens: number;
  refilledAt: number;
  violations: number;
  closing: boolean;
}

const TEXT = { binary: false } as const;
const SUBSCRIBE = "subscribe:geohash";
const UNSUBSCRIBE = "unsubscribe:geohash";

const frame = (event: string, data: unknown): Buffer => Buffer.from(JSON.stringify({ event, data }));

/**
 * mission:created payload for one viewer: the list view with the location of its privacy class.
 * `settings`: the parties' vault settings read for no viewer (privacy.ts publicSettings): a name is
 * in the public frame only when its owner shows it to everyone.
 */
export function createdPayload(row: MissionRow, viewer: string | undefined, settings: PrivacySettings) {
  const party = viewer !== undefined;
  const loc = viewLocation(row.latitude!, row.longitude!, party);
  return { mission: { ...listView(row, viewer, lensOf(viewer, settings)), location: { ...loc, radius: row.radius } } };
}

export function createHub(config: Partial<HubConfig> = {}, logger?: Logger) {
  const cfg: HubConfig = { ...HUB_DEFAULTS, ...config };
  const clients = new Set<HubClient>();
  const index = new SubscriptionIndex<HubClient>();
  const byAddress = new Map<string, Set<HubClient>>();

  /** Sends a prepared frame; false when the client is gone or was closed for being too slow. */
  const sendFrame = (c: HubClient, data: Buffer | string): boolean => {
    const ws = c.ws;
    if (ws.readyState !== ws.OPEN) return false;
    if (ws.bufferedAmount > cfg.maxBufferedBytes) {
      c.closing = true;
      ws.close(CLOSE.tryAgainLater, "slow consumer");
      return false;
    }
    ws.send(data, TEXT);
    return true;
  };
  const send = (c: HubClient, event: string, data: unknown) => sendFrame(c, JSON.stringify({ event, data }));
  const sendError = (c: HubClient, code: ErrorCode, message: string, field: string, reason: string) =>
    send(c, "error", { code, message, details: [{ field, reason }] });

  const drop = (c: HubClient) => {
    if (!clients.delete(c)) return;
    index.removeAll(c);
    if (c.address) {
      const set = byAddress.get(c.address);
      set?.delete(c);
      if (set?.size === 0) byAddress.delete(c.address);
    }
  };

  /** Token bucket per connection; false = the frame is dropped (and maybe the connection closed). */
  const admit = (c: HubClient): boolean => {
    const now = performance.now();
    c.tokens = Math.min(cfg.msgBurst, c.tokens + ((now - c.refilledAt) * cfg.msgRatePerSec) / 1000);
    c.refilledAt = now;
    if (c.tokens >= cfg.msgBurst) c.violations = 0; // backed off long enough: forgiven
    if (c.tokens >= 1) {
      c.tokens -= 1;
      return true;
    }
    if (++c.violations > cfg.maxViolations) {
      c.closing = true;
      c.ws.close(CLOSE.policy, "message rate limit exceeded");
      return false;
    }
    sendError(
      c, "RATE_LIMITED",
      `At most ${cfg.msgRatePerSec} messages per second (burst ${cfg.msgBurst}): message dropped; the connection is closed (1008) after ${cfg.maxViolations} dropped messages`,
      "frame", "rate limit exceeded",
    );
    return false;
  };

  const onMessage = (c: HubClient, raw: RawData, isBinary: boolean) => {
    if (c.closing || !admit(c)) return;
    if (isBinary) return sendError(c, "VALIDATION_ERROR", "Messages are JSON text frames { event, data }", "frame", "binary frame");
    let msg: unknown;
    try {
      msg = JSON.parse(raw.toString());
    } catch {
      return sendError(c, "VALIDATION_ERROR", "Messages are JSON { event, data }", "frame", "not JSON");
    }
    if (typeof msg !== "object" || msg === null || Array.isArray(msg)) {
      return sendError(c, "VALIDATION_ERROR", "Messages are JSON { event, data }", "frame", "not a JSON object");
    }
    const { event, data } = msg as { event?: unknown; data?: unknown };
    if (event !== SUBSCRIBE && event !== UNSUBSCRIBE) {
      return sendError(c, "VALIDATION_ERROR", "Unknown event (subscribe:geohash, unsubscribe:geohash)", "event",
        typeof event === "string" ? "unknown event" : "missing");
    }
    const raw6 = typeof data === "object" && data !== null ? (data as { geohash?: unknown }).geohash : undefined;
    const g = typeof raw6 === "string" ? raw6.toLowerCase() : "";
    if (!GEOHASH_RE.test(g)) {
      const reason = typeof raw6 !== "string" ? "missing or not a string" : raw6.length > 12 ? "longer than 12 characters" : "not a geohash (0-9, b-z without a, i, l, o)";
      return sendError(c, "VALIDATION_ERROR", "data.geohash: 1..12 geohash characters", "data.geohash", reason);
    }
    if (event === UNSUBSCRIBE) {
      index.remove(c, g);
      return send(c, "unsubscribed", { geohash: g });
    }
    if (c.areas.size >= cfg.maxSubscriptions && !c.areas.has(g)) {
      return sendError(c, "VALIDATION_ERROR", `At most ${cfg.maxSubscriptions} subscriptions per connection: unsubscribe first`,
        "data.geohash", "subscription limit reached");
    }
    index.add(c, g);
    send(c, "subscribed", { geohash: g });
  };

  const heartbeat = setInterval(() => {
    for (const c of clients) {
      if (!c.alive) {
        c.ws.terminate();
        drop(c);
        continue;
      }
      c.alive = false;
      try {
        c.ws.ping();
      } catch {
        // socket already closing
      }
    }
  }, cfg.heartbeatMs);
  heartbeat.unref();

  return {
    config: cfg,
    clientCount: () => clients.size,

    /** Registers an upgraded connection (address: lower-case, or null) and greets it with `ready`. */
    connect(ws: WebSocket, address: string | null): HubClient {
      const c: HubClient = {
        ws, address, areas: new Set(), mark: 0, alive: true,
        tokens: cfg.msgBurst, refilledAt: performance.now(), violations: 0, closing: false,
      };
      clients.add(c);
      if (address) {
        let set = byAddress.get(address);
        if (!set) byAddress.set(address, (set = new Set()));
        set.add(c);
      }
      ws.on("pong", () => (c.alive = true));
      ws.on("close", () => drop(c));
      ws.on("error", (err) => {
        logger?.debug("ws client error", { err: err.message });
        drop(c);
      });
      ws.on("message", (raw, isBinary) => {
        try {
          onMessage(c, raw, isBinary);
        } catch (err) {
          // A bug here must cost one frame, not the hub.
          logger?.warn("ws message handler failed", { err: String(err) });
        }
      });
      send(c, "ready", { authenticated: address !== null, address });
      return c;
    },

    /**
     * mission:created to every connection subscribed to an area containing the mission (public
     * location), the parties with the exact one. Returns the number of frames sent.
     */
    /** `settings` (see createdPayload): none given, every name shows (the bench and unit tests). */
    publishCreated(row: MissionRow, settings: PrivacySettings = new Map()): number {
      if (row.latitude === null || row.longitude === null) return 0;
      const exact = geohashEncode(row.latitude, row.longitude, 12);
      const poster = row.poster.toLowerCase();
      const performer = row.performer?.toLowerCase() ?? null;
      let publicFrame: Buffer | undefined;
      let partyFrames: Map<string, Buffer> | undefined;
      let sent = 0;
      index.forEachMatch(
        exact,
        (c) => c.address !== null && (c.address === poster || c.address === performer),
        (c, party) => {
          let f: Buffer;
          if (!party) f = publicFrame ??= frame("mission:created", createdPayload(row, undefined, settings));
          else {
            partyFrames ??= new Map();
            f = partyFrames.get(c.address!) ?? frame("mission:created", createdPayload(row, c.address!, settings));
            partyFrames.set(c.address!, f);
          }
          if (sendFrame(c, f)) sent++;
        },
      );
      return sent;
    },

    /** mission:updated to the mission's parties (whatever they subscribed). Returns frames sent. */
    publishUpdated(row: MissionRow, settings: PrivacySettings = new Map()): number {
      let sent = 0;
      const parties = new Set([row.poster.toLowerCase(), row.performer?.toLowerCase()]);
      for (const address of parties) {
        if (!address) continue;
        const set = byAddress.get(address);
        if (!set) continue;
        const f = frame("mission:updated", { missionId: row.id, state: row.state, mission: listView(row, address, lensOf(address, settings)) });
        for (const c of set) if (sendFrame(c, f)) sent++;
      }
      return sent;
    },

    async close(): Promise<void> {
      clearInterval(heartbeat);
      for (const c of clients) c.ws.close(CLOSE.goingAway, "server shutting down");
    },
    terminateAll(): void {
      for (const c of clients) c.ws.terminate();
      clients.clear();
    },
  };
}
export type Hub = ReturnType<typeof createHub>;
