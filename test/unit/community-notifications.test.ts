// Pure notification rules: journal entry -> drafts, defaults and the preference map; Web Push
// payload delivery against a local HTTP server acting as the push service.
import http from "node:http";
import type { AddressInfo } from "node:net";
import crypto from "node:crypto";
import webpush from "web-push";
import { describe, expect, it } from "vitest";
import type { JournalEntry, JournalType } from "../../domain/index.ts";
import { createLogger } from "../../api/lib/logger.ts";
import { DEFAULT_PREFERENCES, draftsFor, NOTIFICATION_TYPES, PREFERENCE_OF, wanted } from "../../api/services/notification-rules.ts";
import { endpointRefusal, webPushDelivery } from "../../api/services/push-delivery.ts";

const A = "0x00000000000000000000000000000000000000aa";
const B = "0x00000000000000000000000000000000000000bb";
// Partial payloads on purpose: the rules must hold up when a field is missing.
const entry = (type: JournalType, payload: Record<string, unknown>, account: string | null = null) => ({
  id: 5_000_000_000n, chainId: 31337, blockNumber: 5n, blockTimestamp: 1_700_000_000n, txHash: "0x", logIndex: 0, seq: 0,
  type, missionId: "m-1", account, payload,
}) as JournalEntry;

describe("notification rules", () => {
  it("every spec type has a preference; only RATING_RECEIVED is off by default", () => {
    for (const t of NOTIFICATION_TYPES) expect(wanted(t, DEFAULT_PREFERENCES)).toBe(t !== "RATING_RECEIVED");
    expect(PREFERENCE_OF.GUILD_PROMOTED).toBe("guildUpdates");
    expect(wanted("MISSION_ACCEPTED", { ...DEFAULT_PREFERENCES, missionUpdates: false })).toBe(false);
  });
  it("mission events go to the right parties", () => {
    expect(draftsFor(entry("MISSION_ACCEPTED", { id: "m-1", poster: A, performer: B })).map((d) => [d.address, d.type]))
      .toEqual([[A, "MISSION_ACCEPTED"]]);
    expect(draftsFor(entry("MISSION_COMPLETED", { id: "m-1", poster: A, performer: B })).map((d) => d.address)).toEqual([A, B]);
    const ZERO = "0x0000000000000000000000000000000000000000";
    const expired = draftsFor(entry("MISSION_EXPIRED", { id: "m-1", poster: A, performer: ZERO, refund: "5000000" }));
    expect(expired.map((d) => [d.address, d.type, d.data.refundAmount])).toEqual([[A, "MISSION_EXPIRED", "5000000"]]);
    expect(draftsFor(entry("MISSION_EXPIRED", { id: "m-1", poster: A, performer: B, refund: "1" })).map((d) => d.address)).toEqual([A, B]);
    expect(draftsFor(entry("DISPUTE_RAISED", { id: "d", poster: A, performer: B, initiator: B })).map((d) => [d.address, d.type]))
      .toEqual([[A, "MISSION_DISPUTED"]]);
    expect(draftsFor(entry("DISPUTE_FINALIZED", { id: "d", poster: A, performer: B, outcome: "Split" })).map((d) => d.data.final))
      .toEqual([true, true]);
  });
  it("money in trouble: an offer to the other party, a settlement to both, a release to the performer, a refund to the poster", () => {
    const to = (type: JournalType, payload: Record<string, unknown>) => draftsFor(entry(type, payload)).map((d) => [d.address, d.type]);
    expect(to("MISSION_SETTLEMENT_OFFERED", { poster: A, performer: B, byPoster: true, performerAmount: "1", posterAmount: "2" })).toEqual([[B, "SETTLEMENT_OFFERED"]]);
    expect(to("MISSION_SETTLEMENT_OFFERED", { poster: A, performer: B, byPoster: false, performerAmount: "1", posterAmount: "2" })).toEqual([[A, "SETTLEMENT_OFFERED"]]);
    expect(to("MISSION_SETTLED", { poster: A, performer: B, performerAmount: "1", posterAmount: "2", missionState: "Completed" }))
      .toEqual([[A, "MISSION_SETTLED"], [B, "MISSION_SETTLED"]]);
    expect(to("MISSION_RELEASED", { poster: A, performer: B, amount: "1", remaining: "2", settlement: { performerAmount: "1" } })).toEqual([[B, "MISSION_RELEASED"]]);
    expect(to("MISSION_REFUNDED", { poster: A, performer: B, amount: "1", remaining: "0" })).toEqual([[A, "MISSION_REFUNDED"]]);
    // The settlement told both already; the end that follows it is not notified twice.
    expect(to("MISSION_COMPLETED", { id: "m-1", poster: A, performer: B, via: "settlement" })).toEqual([]);
    expect(to("MISSION_COMPLETED", { id: "m-1", poster: A, performer: B, via: "release" })).toHaveLength(2);
    for (const t of ["SETTLEMENT_OFFERED", "MISSION_SETTLED", "MISSION_RELEASED", "MISSION_REFUNDED"] as const) expect(PREFERENCE_OF[t]).toBe("missionUpdates");
  });
  it("promotions, levels, achievements, ratings", () => {
    expect(draftsFor(entry("ROLES_CHANGED", { guildId: 1, member: A, previousRoles: 0, roles: 1 }))[0]!.type).toBe("GUILD_PROMOTED");
    expect(draftsFor(entry("ROLES_CHANGED", { guildId: 1, member: A, previousRoles: 1, roles: 0 }))).toEqual([]);
    expect(draftsFor(entry("LEVEL_UP", { user: A, level: 1, previousLevel: 0 }))).toEqual([]);
    expect(draftsFor(entry("LEVEL_UP", { user: A, level: 2, previousLevel: 1 }))[0]!.type).toBe("XP_LEVEL_UP");
    expect(draftsFor(entry("NFT_MINTED", { to: A, soulbound: false }))).toEqual([]);
    expect(draftsFor(entry("NFT_MINTED", { to: A, soulbound: true, name: "First" }))[0]!.type).toBe("ACHIEVEMENT_EARNED");
    expect(draftsFor(entry("RATING_ATTESTED", { ratee: A, counted: false }))).toEqual([]);
    expect(draftsFor(entry("RATING_ATTESTED", { ratee: A, counted: true, score: 5 }))[0]!.type).toBe("RATING_RECEIVED");
    expect(draftsFor(entry("MISSION_CREATED", { poster: A }))).toEqual([]);
  });
});

describe("web push delivery", () => {
  it("disabled without VAPID keys", async () => {
    const d = webPushDelivery({ subject: "mailto:x@y.z", logger: createLogger("silent") });
    expect(d.enabled).toBe(false);
  });
  it("posts an encrypted payload to the subscription endpoint; 410 reports the subscription gone", async () => {
    const got: { headers: http.IncomingHttpHeaders; body: Buffer }[] = [];
    let status = 201;
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c) => chunks.push(c));
      req.on("end", () => {
        got.push({ headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as AddressInfo).port;
    try {
      const vapid = webpush.generateVAPIDKeys();
      const ecdh = crypto.createECDH("prime256v1");
      ecdh.generateKeys();
      const keys = { p256dh: ecdh.getPublicKey().toString("base64url"), auth: crypto.randomBytes(16).toString("base64url") };
      const d = webPushDelivery({ publicKey: vapid.publicKey, privateKey: vapid.privateKey, subject: "mailto:ops@example.org", logger: createLogger("silent"), allowPrivate: true });
      const device = { id: "1", userId: "u", platform: "web", token: `http://127.0.0.1:${port}/push/abc`, keys, createdAt: new Date() };
      const payload = { id: "n1", type: "MISSION_ACCEPTED", title: "t", body: "b", data: { missionId: "m" } };
      expect(await d.deliver(device, payload)).toBe("sent");
      expect(got).toHaveLength(1);
      expect(got[0]!.headers["content-encoding"]).toBe("aes128gcm");
      expect(String(got[0]!.headers.authorization)).toMatch(/^vapid t=/);
      expect(got[0]!.body.length).toBeGreaterThan(50);
      expect(await d.deliver({ ...device, platform: "ios", token: "apns" }, payload)).toBe("skipped");
      status = 410;
      expect(await d.deliver(device, payload)).toBe("gone");
    } finally {
      server.close();
    }
  });
  it("the SSRF guard: loopback refused at send time unless allowed, redirects not followed, a silent endpoint timed out", async () => {
    const hits: string[] = [];
    const server = http.createServer((req, res) => {
      hits.push(req.url ?? "");
      req.resume();
      if (req.url === "/silent") return; // never answers
      if (req.url === "/redirect") return void res.writeHead(307, { location: "/target" }).end();
      res.writeHead(201).end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as AddressInfo).port;
    try {
      const vapid = webpush.generateVAPIDKeys();
      const ecdh = crypto.createECDH("prime256v1");
      ecdh.generateKeys();
      const keys = { p256dh: ecdh.getPublicKey().toString("base64url"), auth: crypto.randomBytes(16).toString("base64url") };
      const make = (allowPrivate: boolean) =>
        webPushDelivery({ publicKey: vapid.publicKey, privateKey: vapid.privateKey, subject: "mailto:ops@example.org", logger: createLogger("silent"), allowPrivate, timeoutMs: 300 });
      const device = (path: string, host = "127.0.0.1") => ({ id: "1", userId: "u", platform: "web", token: `http://${host}:${port}${path}`, keys, createdAt: new Date() });
      const payload = { id: "n1", type: "MISSION_ACCEPTED", title: "t", body: "b", data: {} };
      // Loopback by literal and by a name resolving to it: refused before a connection is made.
      expect(await make(false).deliver(device("/ok"), payload)).toBe("failed");
      expect(await make(false).deliver(device("/ok", "localhost"), payload)).toBe("failed");
      expect(hits).toEqual([]);
      expect(await make(true).deliver(device("/redirect"), payload)).toBe("failed");
      expect(hits).toEqual(["/redirect"]); // the Location was not followed
      const t0 = performance.now();
      expect(await make(true).deliver(device("/silent"), payload)).toBe("failed");
      expect(performance.now() - t0).toBeLessThan(2_000);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
  it("registration rule: https and public only, unless private URLs are allowed", async () => {
    for (const url of ["http://push.example.org/x", "https://127.0.0.1/x", "https://169.254.169.254/latest", "https://localhost:8443/x", "https://[::1]/x", "https://10.1.2.3/x"]) {
      expect(await endpointRefusal(url, false), url).not.toBeNull();
      expect(await endpointRefusal(url, true), url).toBeNull();
    }
    expect(await endpointRefusal("https://93.184.215.14/push/abc", false)).toBeNull();
  });
});
