// B8 clients child (pinned to the load CPU): every WebSocket client of both sides in one process.
// The hub's clients carry real JWTs, minted here with the API's signing config (HS256, the API's
// JWT_SECRET / issuer / audience and the claims auth.service.ts signs: addr, sub, iat, jti, exp),
// instead of 5,000 SIWE sign-ins; the hub verifies each one and its session (a users row the
// workload inserted, clientUsers) at the upgrade. Client 0 of every cell is the cell's poster (the
// exact-location class), the others are strangers (the public class).
// A receipt is timestamped first thing in the 'message' handler (wall clock, as at the publish) and
// parsed only after the run, so parsing does not queue behind itself.
import crypto from "node:crypto";
import { SignJWT } from "jose";
import WebSocket from "ws";
import { clientUsers } from "./ws-fanout-data.ts";
import { serveRequests, wallNow } from "./ws-fanout-ipc.ts";

interface SideSpec {
  side: string;
  url: string;
  perCell: number;
  cells: { geohash: string; poster: string }[];
  jwt?: { secret: string; issuer: string; audience: string };
}

interface Side {
  sockets: WebSocket[];
  cellOf: number[];
  party: boolean[];
  ci: number[];
  t: number[];
  data: Buffer[];
  closes: number;
}
const sides = new Map<string, Side>();

async function mint(jwt: NonNullable<SideSpec["jwt"]>, user: { userId: string; address: string }): Promise<string> {
  return new SignJWT({ addr: user.address.toLowerCase(), sev: 0 })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(user.userId)
    .setIssuer(jwt.issuer)
    .setAudience(jwt.audience)
    .setIssuedAt()
    .setJti(crypto.randomUUID())
    .setExpirationTime("3600s")
    .sign(new TextEncoder().encode(jwt.secret));
}

function open(side: Side, spec: SideSpec, index: number, token: string | undefined, geohash: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(spec.url + (token ? `?token=${token}` : ""), { perMessageDeflate: false });
    side.sockets[index] = ws;
    let phase: "ready" | "subscribed" | "live" = "ready";
    const fail = (err: Error) => phase !== "live" && reject(new Error(`client ${index}: ${err.message}`));
    ws.on("error", fail);
    ws.on("unexpected-response", (_req, res) => fail(new Error(`HTTP ${res.statusCode}`)));
    ws.on("close", () => {
      side.closes++;
      fail(new Error("closed during set-up"));
    });
    ws.on("message", (data: Buffer) => {
      if (phase === "live") {
        side.t.push(wallNow());
        side.ci.push(index);
        side.data.push(data);
        return;
      }
      const m = JSON.parse(data.toString()) as { event: string };
      if (phase === "ready" && m.event === "ready") {
        phase = "subscribed";
        ws.send(JSON.stringify({ event: "subscribe:geohash", data: { geohash } }));
      } else if (phase === "subscribed" && m.event === "subscribed") {
        phase = "live";
        resolve();
      } else fail(new Error(`unexpected ${data.toString().slice(0, 200)}`));
    });
  });
}

serveRequests(
  {
    /** Connects perCell clients to every cell of the side (64 handshakes in flight), all subscribed. */
    async connect(spec: SideSpec) {
      const side: Side = { sockets: [], cellOf: [], party: [], ci: [], t: [], data: [], closes: 0 };
      sides.set(spec.side, side);
      const users = clientUsers(spec.cells, spec.perCell);
      const jobs: { index: number; cell: number; user: { userId: string; address: string } }[] = [];
      for (let j = 0; j < spec.perCell; j++) {
        for (const cell of spec.cells.keys()) {
          const index = jobs.length;
          side.cellOf[index] = cell;
          side.party[index] = j === 0;
          jobs.push({ index, cell, user: users[index]! });
        }
      }
      const t0 = performance.now();
      let nextJob = 0;
      const worker = async () => {
        while (nextJob < jobs.length) {
          const job = jobs[nextJob++]!;
          const token = spec.jwt ? await mint(spec.jwt, job.user) : undefined;
          await open(side, spec, job.index, token, spec.cells[job.cell]!.geohash);
        }
      };
      await Promise.all(Array.from({ length: 64 }, worker));
      return { clients: jobs.length, seconds: (performance.now() - t0) / 1000, cellOf: side.cellOf, party: side.party };
    },
    /** Receipts since the last collect: [client, missionId, t, precision] per mission:created, plus other frames. */
    collect(body: { side: string }) {
      const side = sides.get(body.side)!;
      const receipts: [number, string, number, number][] = [];
      const other: string[] = [];
      for (let k = 0; k < side.data.length; k++) {
        const m = JSON.parse(side.data[k]!.toString()) as { event: string; data: { mission?: { id: string; location: { precision: number } } } };
        if (m.event === "mission:created" && m.data.mission) receipts.push([side.ci[k]!, m.data.mission.id, side.t[k]!, m.data.mission.location.precision]);
        else if (other.length < 20) other.push(side.data[k]!.toString().slice(0, 200));
      }
      side.ci = [];
      side.t = [];
      side.data = [];
      return { receipts, other, closes: side.closes };
    },
  },
  async () => {
    for (const s of sides.values()) for (const ws of s.sockets) ws?.terminate();
  },
);
