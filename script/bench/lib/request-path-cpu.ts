// B1 diagnosis aid (not part of `npm run bench`): node CPU per request of the API's shared request path,
// without a database or a socket: GET /config (static JSON) of several API checkouts and of a bare Hono
// app answering the same JSON, each through @hono/node-server's request listener (the served path: the
// node adapter's request, headers set on node's ServerResponse, writeHead and end) with an in-memory
// IncomingMessage/ServerResponse pair, alternated in blocks in this process. What a route pays before
// and after its own work (routing, middleware, headers, metrics, the rate limiter), measured without
// the loopback and PostgreSQL noise that dominates the HTTP figures.
//   npx tsx script/bench/lib/request-path-cpu.ts bare,/tmp/before,.   (BLOCKS=40 BLOCK=2000)
// MISSIONS=2000: GET /missions/:id instead, over an ephemeral PostgreSQL with that dataset, and B1's
// baseline app (baseline-server.ts) as "bare": B1's read served without sockets, alternated in process.
import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { Hono } from "hono";
import pg from "pg";
import { ensurePostgres } from "../../lib/postgres.ts";
import { baselineApp } from "./baseline-server.ts";
import { getDataset } from "./dataset.ts";

type Listener = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

type ResponseClass = typeof ServerResponse;

function requestOf(path: string, Res: ResponseClass): [IncomingMessage, ServerResponse, Promise<string>] {
  const socket = new Socket();
  Object.defineProperty(socket, "remoteAddress", { value: "127.0.0.1" });
  const req = new IncomingMessage(socket);
  req.method = "GET";
  req.url = path;
  req.httpVersion = "1.1";
  req.httpVersionMajor = 1;
  req.httpVersionMinor = 1;
  req.rawHeaders = ["Host", "127.0.0.1:3000", "Accept", "application/json"];
  req.headers = { host: "127.0.0.1:3000", accept: "application/json" };
  req.complete = true;
  req.push(null);
  const res = new Res(req);
  const chunks: string[] = [];
  const sent = new Promise<string>((resolve) => {
    // No socket: node keeps what it would send (the head and the body) in outputData.
    res.on("finish", () => resolve(chunks.join("")));
    const end = res.end.bind(res);
    res.end = ((...a: Parameters<ServerResponse["end"]>) => {
      const r = end(...a);
      for (const o of (res as unknown as { outputData: { data: string | Buffer }[] }).outputData) chunks.push(String(o.data));
      resolve(chunks.join("") || res.statusCode + "");
      return r;
    }) as ServerResponse["end"];
  });
  return [req, res, sent];
}

async function main() {
  const sides = (process.argv[2] ?? "bare,.").split(",");
  const block = Number(process.env.BLOCK ?? 2000);
  const blocks = Number(process.env.BLOCKS ?? 40);
  const apps: { name: string; listener: Listener; Res: ResponseClass; close: () => Promise<void> }[] = [];
  let configJson: unknown;
  const missions = Number(process.env.MISSIONS ?? 0);
  const pgh = missions ? await ensurePostgres({ ephemeral: true, log: () => {} }) : undefined;
  const ds = pgh ? await getDataset({ smoke: true, missions, scratchDir: "/tmp", shared: new Map(), log: () => {}, postgresUrl: async () => pgh.url }) : undefined;
  const paths = ds ? (await ds.missionIds(5000)).map((id) => `/missions/${id}`) : ["/config"];
  let next = 0;
  for (const side of sides.filter((s) => s !== "bare")) {
    const root = side === "." ? process.cwd() : side;
    const { createServer } = (await import(`${root}/api/app.ts`)) as typeof import("../../../api/app.ts");
    const api = await createServer({
      overrides: {
        NODE_ENV: "production", LOG_LEVEL: "warn", DATABASE_URL: ds?.databaseUrl ?? "postgres://nobody:x@127.0.0.1:9/none", CHAIN_ID: "31337",
        ...(ds ? { CHAIN_SCHEMA: ds.chainSchema } : {}),
        DEPLOYMENT_FILE: "/nonexistent/deployment.json", INDEXER_URL: "http://127.0.0.1:9", RPC_URL: "http://127.0.0.1:9",
        JWT_SECRET: "b1-rp-secret-b1-rp-secret-0123456789", MIGRATE_ON_START: "false", REACTORS_ENABLED: "false",
        KEEPER_INTERVAL_MS: "0", RATE_LIMIT_ANON_PER_MIN: "1000000",
      },
    });
    configJson ??= await (await api.app.request("/config")).json();
    // The checkout's own ServerResponse when it serves with one (its serveOptions()), else node's.
    const mod = (await import(`${root}/api/app.ts`)) as { serveOptions?: () => { serverOptions: { ServerResponse?: ResponseClass } } };
    const Res = mod.serveOptions?.().serverOptions.ServerResponse ?? ServerResponse;
    apps.push({ name: side, listener: getRequestListener(api.app.fetch) as unknown as Listener, Res, close: () => api.close() });
  }
  if (sides.includes("bare") && ds) {
    const pool = new pg.Pool({ connectionString: ds.databaseUrl, max: 20 });
    pool.on("error", () => {});
    apps.unshift({ name: "bare", listener: getRequestListener(baselineApp(pool, ds.chainSchema).fetch) as unknown as Listener, Res: ServerResponse, close: () => pool.end() });
  } else if (sides.includes("bare")) {
    const bare = new Hono();
    bare.get("/config", (c) => c.json(configJson as object));
    apps.unshift({ name: "bare", listener: getRequestListener(bare.fetch) as unknown as Listener, Res: ServerResponse, close: async () => {} });
  }
  const one = async (a: (typeof apps)[number]) => {
    const [req, res, sent] = requestOf(paths[next++ % paths.length]!, a.Res);
    await a.listener(req, res);
    return sent;
  };
  for (const a of apps) {
    const text = await one(a);
    console.log(`${a.name}: ${text.split("\r\n")[0]}, ${text.split("\r\n\r\n")[0]!.split("\r\n").length - 1} response headers`);
  }
  const batch = async (a: (typeof apps)[number], n: number, concurrency = 16) => {
    let i = 0;
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (i++ < n) await one(a);
    }));
  };
  for (const a of apps) await batch(a, 5000); // warm-up
  const cpu = apps.map(() => 0);
  for (let b = 0; b < blocks; b++) {
    const order = b % 2 ? [...apps.keys()].reverse() : [...apps.keys()];
    for (const i of order) {
      const c0 = process.cpuUsage();
      await batch(apps[i]!, block);
      const c = process.cpuUsage(c0);
      cpu[i]! += c.user + c.system;
    }
  }
  const per = cpu.map((c) => c / (block * blocks));
  apps.forEach((a, i) => console.log(`${a.name.padEnd(28)} ${per[i]!.toFixed(2)} µs CPU/request (${(per[i]! - per[0]!).toFixed(2)} µs over ${apps[0]!.name})`));
  if (process.env.PROFILE) {
    // PROFILE=<side>: a CPU profile of more blocks of that side, its hottest functions.
    const a = apps.find((x) => x.name === process.env.PROFILE)!;
    const { hottest, profileOf } = await import("./mission-read-profile.ts");
    console.log(hottest(await profileOf(() => batch(a, block * blocks), 100), 1e6, 40));
  }
  for (const a of apps) await a.close().catch(() => {});
  await pgh?.stop();
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
