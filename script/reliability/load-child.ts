// The reliability load generator, in its own process (pinned to the load CPU by the parent): a constant
// arrival rate (open loop: a request is started every 1/rate s whether or not earlier ones finished),
// mixed reads and writes through real signed-in users, over an undici pool. Reads: GET /missions/:id,
// /feed, /missions/nearby, /feed/search; writes: POST /missions (Idempotency-Key) and
// POST /missions/:id/accept of a mission another user created during the run. Prints a JSON result.
import fs from "node:fs";
import { Pool } from "undici";
import { runOpenLoop } from "../lib/open-loop.ts";

export interface LoadChildOptions {
  url: string;
  rate: number;
  durationSeconds: number;
  /** Share of writes, 0..1 (default 0.1). */
  writeShare: number;
  connections: number;
  users: { address: string; token: string }[];
  /** Missions that exist before the run (read targets). */
  seedMissionIds: string[];
  city: { lat: number; lng: number };
}

export interface LoadChildResult {
  requests: number;
  errors: number;
  /** Status (or "network") -> count, for the failures only. */
  errorKinds: Record<string, number>;
  errorSamples: string[];
  byKind: Record<string, { requests: number; errors: number; p50: number; p99: number }>;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  achievedRps: number;
  /** Completed requests per second from the first send to the last response (the server's throughput). */
  completedRps: number;
  /** Start-time lag of the scheduler at p99 (ms): shows whether the generator kept the rate. */
  scheduleLagP99: number;
  created: { id: string; onChainId: string; poster: string; key: string }[];
  accepted: { id: string; performer: string }[];
  durationSeconds: number;
}

const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0);
const TERMS = ["delivery", "garden", "repair", "moving", "cleaning", "bike", "paint", "help"];
const CATEGORIES = ["delivery", "repair", "cleaning", "other"];

async function main() {
  const arg = process.argv[2]!;
  const o = JSON.parse(fs.readFileSync(arg.slice(arg.startsWith("@") ? 1 : 0), "utf8")) as LoadChildOptions;
  const pool = new Pool(o.url, { connections: o.connections, pipelining: 1, keepAliveTimeout: 30_000 });
  const ids = [...o.seedMissionIds];
  const openToAccept: { id: string; poster: string }[] = [];
  const created: LoadChildResult["created"] = [];
  const accepted: LoadChildResult["accepted"] = [];
  const latencies: number[] = [];
  const kinds = new Map<string, { lat: number[]; errors: number }>();
  const errorKinds: Record<string, number> = {};
  const errorSamples: string[] = [];
  let errors = 0;
  const runTag = Date.now().toString(36);

  const record = (kind: string, ms: number, ok: boolean, why?: string) => {
    latencies.push(ms);
    const k = kinds.get(kind) ?? { lat: [], errors: 0 };
    k.lat.push(ms);
    if (!ok) {
      k.errors++;
      errors++;
      errorKinds[why ?? "?"] = (errorKinds[why ?? "?"] ?? 0) + 1;
    }
    kinds.set(kind, k);
  };

  async function send(kind: string, method: "GET" | "POST", path: string, user: { token: string }, body?: unknown, extra: Record<string, string> = {}) {
    const t0 = performance.now();
    try {
      const res = await pool.request({
        method, path,
        headers: { authorization: `Bearer ${user.token}`, ...(body ? { "content-type": "application/json" } : {}), ...extra },
        body: body ? JSON.stringify(body) : undefined,
        headersTimeout: 60_000, bodyTimeout: 60_000,
      });
      const text = await res.body.text();
      const ms = performance.now() - t0;
      const ok = res.statusCode >= 200 && res.statusCode < 300;
      record(kind, ms, ok, ok ? undefined : String(res.statusCode));
      if (!ok && errorSamples.length < 20) errorSamples.push(`${kind} ${method} ${path} -> ${res.statusCode} ${text.slice(0, 200)}`);
      return ok ? (JSON.parse(text) as any) : null;
    } catch (err) {
      record(kind, performance.now() - t0, false, "network");
      if (errorSamples.length < 20) errorSamples.push(`${kind} ${method} ${path} -> ${(err as Error).message}`);
      return null;
    }
  }

  function one(n: number): Promise<unknown> {
    const user = o.users[n % o.users.length]!;
    const isWrite = (n * 7919) % 100 < o.writeShare * 100; // spread evenly, deterministic
    if (isWrite) {
      // Every third write accepts a mission another user created in this run (when one is waiting).
      const idx = n % 3 === 0 ? openToAccept.findIndex((m) => m.poster !== user.address) : -1;
      if (idx >= 0) {
        const m = openToAccept.splice(idx, 1)[0]!;
        return send("accept", "POST", `/missions/${m.id}/accept`, user).then((r) => {
          if (r) accepted.push({ id: m.id, performer: user.address });
        });
      }
      const key = `rel-${runTag}-${n}`;
      const lat = o.city.lat + ((n % 97) - 48) * 0.0004, lng = o.city.lng + ((n % 89) - 44) * 0.0004;
      const body = {
        title: `Reliability ${TERMS[n % TERMS.length]} ${n}`,
        description: `Load-run mission ${n}: ${TERMS[(n + 3) % TERMS.length]} near the centre`,
        rewardAmount: "0.01", category: CATEGORIES[n % CATEGORIES.length], expiresIn: 86_400,
        location: { latitude: Number(lat.toFixed(6)), longitude: Number(lng.toFixed(6)), radius: 100 },
      };
      return send("create", "POST", "/missions", user, body, { "idempotency-key": key }).then((r) => {
        if (r?.data?.id) {
          created.push({ id: r.data.id, onChainId: String(r.data.onChainId), poster: user.address, key });
          ids.push(r.data.id);
          openToAccept.push({ id: r.data.id, poster: user.address });
        }
      });
    }
    switch (n % 4) {
      case 0:
        return send("GET /missions/:id", "GET", `/missions/${ids[(n * 31) % ids.length]}`, user);
      case 1:
        return send("GET /feed", "GET", `/feed?latitude=${o.city.lat}&longitude=${o.city.lng}&take=20`, user);
      case 2:
        return send("GET /missions/nearby", "GET", `/missions/nearby?latitude=${o.city.lat}&longitude=${o.city.lng}&radius=5000&limit=50`, user);
      default:
        return send("GET /feed/search", "GET", `/feed/search?q=${TERMS[n % TERMS.length]}&limit=20`, user);
    }
  }

  const run = await runOpenLoop({ rate: o.rate, seconds: o.durationSeconds, fire: (n) => one(n) });
  const { sentSeconds, allSeconds, lags } = run;
  await pool.close();
  const sorted = [...latencies].sort((a, b) => a - b);
  const byKind: LoadChildResult["byKind"] = {};
  for (const [k, v] of kinds) {
    const s = [...v.lat].sort((a, b) => a - b);
    byKind[k] = { requests: s.length, errors: v.errors, p50: round(pct(s, 50)), p99: round(pct(s, 99)) };
  }
  const result: LoadChildResult = {
    requests: latencies.length, errors, errorKinds, errorSamples, byKind,
    p50: round(pct(sorted, 50)), p90: round(pct(sorted, 90)), p99: round(pct(sorted, 99)), max: round(sorted.at(-1) ?? 0),
    achievedRps: round(latencies.length / sentSeconds),
    completedRps: round(latencies.length / allSeconds),
    scheduleLagP99: round(pct([...lags].sort((a, b) => a - b), 99)),
    created, accepted, durationSeconds: round(sentSeconds),
  };
  process.stdout.write(JSON.stringify(result));
}

const round = (x: number) => Math.round(x * 100) / 100;

main().catch((err) => {
  process.stderr.write(String(err instanceof Error ? err.stack : err));
  process.exit(1);
});
