// The hub over real WebSockets on loopback (no API, no database): fan-out by area with one frame
// per privacy class, each connection once; updates to the parties only; a client that stops
// reading is cut off at the buffer cap (1013) instead of growing the server's memory.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import type { MissionRow } from "../../api/repositories/missions.repository.ts";
import { geohashEncode } from "../../api/services/discovery/geo.ts";
import { createHub, type Hub } from "../../api/services/discovery/realtime-hub.ts";

const poster = "0x00000000000000000000000000000000000000aa";
const spot = { latitude: 48.1371, longitude: 11.5754 };
const row = (over: Partial<MissionRow> = {}): MissionRow => ({
  id: "5b0f1a53-0000-4000-8000-000000000001" as MissionRow["id"], onChainId: 1n, escrowAddress: "0x01", poster: poster.toUpperCase().replace("0X", "0x") as `0x${string}`,
  performer: null, guildOnChainId: 0, guildUuid: null, guildName: null, reward: 5_000_000n, ddrAmount: 1_000_000n, state: "Open",
  detailsHash: "0x02", proofHash: null, refundAmount: null, released: 0n, refunded: 0n, expiresAt: 1_900_000_000n, createdAt: 1_800_000_000n,
  acceptedAt: null, completedAt: null, title: "Hub", description: "d", category: "c", ...spot, radius: 50, metadata: {},
  minReputation: null, premium: false, minGuildXP: null,
  posterId: null, posterName: null, performerId: null, performerName: null, ...over,
});

let server: http.Server;
let hub: Hub;
let url: string;
const sockets: WebSocket[] = [];

beforeAll(async () => {
  server = http.createServer();
  const wss = new WebSocketServer({ server });
  hub = createHub({ heartbeatMs: 60_000 });
  wss.on("connection", (ws, req) => hub.connect(ws, new URL(req.url!, "http://x").searchParams.get("as")));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  for (const s of sockets) s.terminate();
  hub.terminateAll();
  await hub.close();
  await new Promise((r) => server.close(r));
});

async function client(as?: string, areas: string[] = []) {
  const ws = new WebSocket(url + (as ? `?as=${as}` : ""));
  sockets.push(ws);
  // Parsed lazily: the slow-consumer test pushes 30 MB through the fast client.
  const frames: { event: string; readonly data: any }[] = [];
  ws.on("message", (d: Buffer) => {
    const head = d.subarray(0, 40).toString();
    const event = /^\{"event":"([^"]+)"/.exec(head)?.[1] ?? "?";
    let parsed: any;
    frames.push({ event, get data() { return (parsed ??= JSON.parse(d.toString()).data); } });
  });
  await new Promise((r) => ws.once("open", r));
  for (const g of areas) ws.send(JSON.stringify({ event: "subscribe:geohash", data: { geohash: g } }));
  await until(() => frames.filter((f) => f.event === "subscribed").length === areas.length);
  return { ws, frames, created: () => frames.filter((f) => f.event === "mission:created") };
}
async function until(ok: () => boolean, ms = 3000) {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe("realtime hub", () => {
  it("one frame per privacy class, each matching connection exactly once, nobody else", async () => {
    const cell5 = geohashEncode(spot.latitude, spot.longitude, 5);
    const exact9 = geohashEncode(spot.latitude, spot.longitude, 9);
    const own = await client(poster, [cell5]);
    const overlapping = await client("0x00000000000000000000000000000000000000bb", [cell5.slice(0, 2), cell5, exact9.slice(0, 8)]);
    const anon = await client(undefined, [exact9.slice(0, 7)]);
    const elsewhere = await client(undefined, ["7zzz"]);
    expect(hub.publishCreated(row())).toBe(3);
    await until(() => own.created().length === 1 && overlapping.created().length === 1 && anon.created().length === 1);
    await new Promise((r) => setTimeout(r, 50));
    expect(overlapping.created()).toHaveLength(1);
    expect(elsewhere.created()).toHaveLength(0);
    expect(own.created()[0].data.mission.location).toMatchObject({ ...spot, precision: 0, radius: 50 });
    expect(overlapping.created()[0].data.mission.location.precision).toBe(2);
    expect(anon.created()[0].data).toEqual(overlapping.created()[0].data);

    expect(hub.publishUpdated(row({ state: "Accepted" }))).toBe(1);
    await until(() => own.frames.some((f) => f.event === "mission:updated"));
    expect(overlapping.frames.some((f) => f.event === "mission:updated")).toBe(false);
  });

  it("a client that stops reading is dropped at the buffer cap (close 1013), the others keep getting events", async () => {
    const sydney = { latitude: -33.8688, longitude: 151.2093 };
    const cell5 = geohashEncode(sydney.latitude, sydney.longitude, 5);
    const slow = await client(undefined, [cell5]);
    const fast = await client(undefined, [cell5]);
    (slow.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const big = row({ ...sydney, description: "x".repeat(200_000) });
    let sent = 0;
    // 150 × 200 kB = 30 MB offered to each, paced so that a reading client keeps up: the paused one
    // fills the kernel's socket buffers, then 1 MiB in the server, then is closed.
    for (let i = 0; i < 150; i++) {
      sent += hub.publishCreated(big);
      await new Promise((r) => setTimeout(r, 3));
    }
    expect(sent).toBeGreaterThanOrEqual(150);
    expect(sent).toBeLessThan(300);
    await until(() => fast.created().length === 150, 20_000);
    const closed = new Promise<number>((r) => slow.ws.on("close", (code) => r(code)));
    (slow.ws as unknown as { _socket: { resume(): void } })._socket.resume();
    expect(await closed).toBe(1013);
    expect(slow.created().length).toBeLessThan(150);
    expect(fast.ws.readyState).toBe(WebSocket.OPEN);
  }, 40_000);
});
