// Webhooks, pure parts and the sender: event mapping, the retry schedule, the SSRF address rules, and
// sendWebhook against a local HTTP server (signature verified with the `standardwebhooks` package).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JournalEntry, JournalType } from "../../domain/index.ts";
import { webhookDraftFor, WEBHOOK_EVENTS } from "../../api/services/webhooks/events.ts";
import { retryDelayMs } from "../../api/services/webhooks/retry.ts";
import { sendWebhook } from "../../api/services/webhooks/sender.ts";
import { isPrivateAddress } from "../../api/services/webhooks/ssrf.ts";
import { newSecret } from "../../api/services/webhooks/webhooks.service.ts";

const P = "0x00000000000000000000000000000000000000aa";
const Q = "0x00000000000000000000000000000000000000bb";
// Partial payloads on purpose: the mapping must hold up when a field is missing.
const entry = (type: JournalType, payload: Record<string, unknown>) => ({
  id: 5_000_000_001_000n, chainId: 31337, blockNumber: 5n, blockTimestamp: 1_700_000_000n, txHash: "0x", logIndex: 1, seq: 0,
  type, missionId: "m-1", account: P, payload,
}) as JournalEntry;

describe("event mapping", () => {
  it("maps each journal type to its event and recipients", () => {
    const cases: [JournalType, Record<string, unknown>, string, string[]][] = [
      ["MISSION_CREATED", { poster: P, missionId: "7", reward: "1000000", expiresAt: "1700003600" }, "mission.created", [P]],
      ["MISSION_ACCEPTED", { poster: P, performer: Q }, "mission.accepted", [P, Q]],
      ["MISSION_SUBMITTED", { poster: P, performer: Q, proofHash: "0x1" }, "mission.submitted", [P, Q]],
      ["MISSION_COMPLETED", { poster: P, performer: Q }, "mission.completed", [P, Q]],
      ["MISSION_CANCELLED", { poster: P, refund: "5" }, "mission.cancelled", [P]],
      ["MISSION_EXPIRED", { poster: P, performer: "0x0000000000000000000000000000000000000000", refund: "5" }, "mission.expired", [P]],
      ["DISPUTE_RAISED", { poster: P, performer: Q, initiator: Q, id: "d" }, "mission.disputed", [P, Q]],
      ["DISPUTE_FINALIZED", { poster: P, performer: Q, id: "d", outcome: "Split" }, "dispute.resolved", [P, Q]],
      ["RATING_ATTESTED", { ratee: Q, rater: P, counted: true, score: 5, uid: "0xu" }, "rating.received", [Q]],
      ["MISSION_SETTLEMENT_OFFERED", { poster: P, performer: Q, byPoster: true, performerAmount: "4", posterAmount: "6" }, "mission.settlement_offered", [P, Q]],
      ["MISSION_SETTLED", { poster: P, performer: Q, performerAmount: "4", posterAmount: "6", missionState: "Completed", disputeUuid: null }, "mission.settled", [P, Q]],
      ["MISSION_RELEASED", { poster: P, performer: Q, amount: "4", remaining: "6", settlement: { performerAmount: "3" } }, "mission.released", [P, Q]],
      ["MISSION_REFUNDED", { poster: P, performer: Q, amount: "4", remaining: "0" }, "mission.refunded", [P, Q]],
    ];
    expect(cases.map((c) => c[2]).sort()).toEqual([...WEBHOOK_EVENTS].sort());
    for (const [type, payload, event, recipients] of cases) {
      const d = webhookDraftFor(entry(type, payload))!;
      expect(d.event, type).toBe(event);
      expect(d.recipients, type).toEqual(recipients);
    }
    expect(webhookDraftFor(entry("MISSION_CREATED", { poster: P, reward: "1000000", expiresAt: "1700003600" }))!.extra).toMatchObject({
      rewardAmount: "1000000", expiresAt: "2023-11-14T23:13:20.000Z",
    });
  });
  it("gives the money events their amounts (base units) and the settlement's dispute", () => {
    const offered = webhookDraftFor(entry("MISSION_SETTLEMENT_OFFERED", { poster: P, performer: Q, byPoster: false, performerAmount: "4", posterAmount: "6" }))!;
    expect(offered.extra).toEqual({ by: "performer", performerAmount: "4", posterAmount: "6" });
    const settled = webhookDraftFor(entry("MISSION_SETTLED", { poster: P, performer: Q, performerAmount: "0", posterAmount: "10", missionState: "Cancelled", disputeUuid: "d-1" }))!;
    expect(settled.extra).toEqual({ performerAmount: "0", posterAmount: "10", state: "Cancelled", disputeId: "d-1" });
    const released = webhookDraftFor(entry("MISSION_RELEASED", { poster: P, performer: Q, amount: "4", remaining: "6", settlement: { performerAmount: "3" } }))!;
    expect(released.extra).toEqual({ amount: "4", remainingAmount: "6", performerReceived: "3" });
    expect(webhookDraftFor(entry("MISSION_REFUNDED", { poster: P, performer: Q, amount: "4", remaining: "0" }))!.extra).toEqual({ amount: "4", remainingAmount: "0" });
    expect(webhookDraftFor(entry("MISSION_COMPLETED", { poster: P, performer: Q, via: "settlement" }))!.extra).toMatchObject({ via: "settlement" });
  });
  it("ignores uncounted ratings and other types", () => {
    expect(webhookDraftFor(entry("RATING_ATTESTED", { ratee: Q, counted: false }))).toBeNull();
    expect(webhookDraftFor(entry("LEVEL_UP", { user: P }))).toBeNull();
  });
});

describe("retry schedule", () => {
  it("doubles from the base, caps each wait at 480 x base, jitters by +-25 %, and sums to about a day in production", () => {
    expect(retryDelayMs(1, 60_000, 0.5)).toBe(60_000);
    expect(retryDelayMs(2, 60_000, 0.5)).toBe(120_000);
    expect(retryDelayMs(1, 60_000, 0)).toBe(45_000);
    expect(retryDelayMs(1, 60_000, 0.999999)).toBeLessThanOrEqual(75_000);
    expect(retryDelayMs(20, 60_000, 0.5)).toBe(8 * 3600_000);
    let total = 0;
    for (let a = 1; a < 12; a++) total += retryDelayMs(a, 60_000, 0.5);
    expect(total / 3600_000).toBeGreaterThan(22);
    expect(total / 3600_000).toBeLessThan(27);
  });
});

describe("SSRF address rules", () => {
  it("refuses loopback, private, link-local, shared and mapped addresses; accepts public ones", () => {
    for (const ip of ["127.0.0.1", "10.0.0.1", "172.16.5.4", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "::1", "fe80::1", "fd00::1", "::ffff:127.0.0.1", "::", "not-an-ip"]) {
      expect(isPrivateAddress(ip), ip).toBe(true);
    }
    for (const ip of ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "172.32.0.1"]) expect(isPrivateAddress(ip), ip).toBe(false);
  });
});

describe("sendWebhook", () => {
  let server: http.Server;
  let url: string;
  const seen: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        seen.push({ headers: req.headers, body });
        if (req.url === "/redirect") return void res.writeHead(302, { location: "/ok" }).end();
        if (req.url === "/slow") return void setTimeout(() => res.writeHead(200).end(), 2_000);
        if (req.url === "/big") return void res.writeHead(200).end("x".repeat(1_000_000));
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((r) => server.close(r)));
  const opts = { timeoutMs: 1_000, allowPrivate: true, maxResponseBytes: 1024 };

  it("signs per Standard Webhooks (verified by the standardwebhooks package)", async () => {
    const secret = newSecret();
    const body = JSON.stringify({ event: "mission.accepted", data: { missionId: "m" } });
    const r = await sendWebhook(`${url}/ok`, "msg_1", body, [secret], opts);
    expect(r).toMatchObject({ ok: true, responseCode: 204, error: null });
    const last = seen.at(-1)!;
    expect(last.headers["webhook-id"]).toBe("msg_1");
    expect(new Webhook(secret).verify(last.body, last.headers as Record<string, string>)).toEqual(JSON.parse(body));
  });
  it("does not follow redirects, times out, caps the response it reads", async () => {
    expect(await sendWebhook(`${url}/redirect`, "m", "{}", [newSecret()], opts)).toMatchObject({ ok: false, responseCode: 302 });
    expect(seen.filter((s) => s.headers["webhook-id"] === "m")).toHaveLength(1);
    const slow = await sendWebhook(`${url}/slow`, "s", "{}", [newSecret()], opts);
    expect(slow).toMatchObject({ ok: false, responseCode: null });
    expect(slow.error).toMatch(/timed out/);
    expect(await sendWebhook(`${url}/big`, "b", "{}", [newSecret()], opts)).toMatchObject({ ok: true, responseCode: 200 });
  });
  it("refuses loopback targets (literal and by name) when private URLs are not allowed", async () => {
    const before = seen.length;
    const port = (server.address() as AddressInfo).port;
    for (const target of [`${url}/ok`, `http://localhost:${port}/ok`]) {
      const r = await sendWebhook(target, "x", "{}", [newSecret()], { ...opts, allowPrivate: false });
      expect(r.ok, target).toBe(false);
      expect(r.error, target).toMatch(/non-public/);
    }
    expect(seen.length).toBe(before);
  });
});
