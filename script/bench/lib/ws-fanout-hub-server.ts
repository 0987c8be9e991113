// B8 child (pinned to the server CPU): the REAL API with its WebSocket hub, built exactly as
// api/app.ts createServer().listen() builds it (createDeps, migrations, buildApp, @hono/node-server,
// the realtime channel deps built, attached with the production config; change feed followed). Background jobs that need a
// chain (reactors, dispute keeper) are not started: they are not on the fan-out path.
// Requests: start {env} -> {port}; load {missionIds} (rows read through the API's repository, as the
// tailer's dispatch does); run {count, perSecond, startAt, offset} -> publish times. The clock of an
// event starts right before `publishCreated(row)`, the hub entry point the journal tailer calls
// once it has read the row.
import { serve, type ServerType } from "@hono/node-server";
import type { Server } from "node:http";
import { buildApp } from "../../../api/app.ts";
import { runMigrations } from "../../../api/db/migrate.ts";
import { createDeps, type Deps } from "../../../api/deps.ts";
import { loadEnv } from "../../../api/env.ts";
import { createLogger } from "../../../api/lib/logger.ts";
import type { MissionRow } from "../../../api/repositories/missions.repository.ts";
import type { Realtime } from "../../../api/services/discovery/realtime.ts";
import { createdPayload } from "../../../api/services/discovery/realtime-hub.ts";
import { atRate, serveRequests, wallNow } from "./ws-fanout-ipc.ts";

let deps: Deps | undefined;
let server: ServerType | undefined;
let realtime: Realtime | undefined;
let rows: MissionRow[] = [];

serveRequests(
  {
    async start(body: { env: Record<string, string> }) {
      const env = loadEnv(body.env);
      deps = createDeps(env, createLogger(env.LOG_LEVEL, { service: "b8-api" }));
      await runMigrations(deps.database);
      const app = buildApp(deps);
      const port = await new Promise<number>((resolve, reject) => {
        server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => resolve(info.port));
        server.once("error", reject);
      });
      realtime = deps.workers.realtime.attach(server as unknown as Server);
      return { port };
    },
    async load(body: { missionIds: string[] }) {
      rows = [];
      for (const id of body.missionIds) {
        const row = await deps!.repos.missions.findById(id);
        if (!row) throw new Error(`mission ${id} not found`);
        rows.push(row);
      }
      return { rows: rows.length };
    },
    clients: () => ({ clients: realtime!.clientCount() }),
    /** The public mission:created message of every loaded row (the baseline sends the same bytes). */
    messages: () => rows.map((row) => ({ event: "mission:created", data: createdPayload(row, undefined, new Map()) })),
    async run(body: { count: number; perSecond: number; startAt: number; offset: number }) {
      const out: { event: number; t: number; sent: number; fanoutMs: number }[] = [];
      await atRate(body.count, body.perSecond, body.startAt, (i) => {
        const event = (body.offset + i) % rows.length;
        const t = wallNow();
        const sent = realtime!.publishCreated(rows[event]!);
        out.push({ event, t, sent, fanoutMs: wallNow() - t });
      });
      return out;
    },
  },
  async () => {
    await deps?.workers.realtime.close();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    await deps?.close();
  },
);
