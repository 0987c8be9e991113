// B1 diagnosis aid (not part of `npm run bench`): the raw responses of two or more API checkouts, byte
// for byte (status line, every header in its order, body), for GET /missions/:id over one dataset:
// anonymous, with a given X-Request-Id, with an Origin, and three signed-in viewers (the poster of some
// missions, the performer of others, a stranger) while two thirds of the users hide their name or show it
// to guildmates only; plus an unknown id, a malformed one, /v2 and a trailing slash. Each request goes
// through @hono/node-server's listener with the checkout's own ServerResponse (its serveOptions()), with
// an in-memory request (request-path-cpu.ts); Date, X-RateLimit-Reset, Retry-After and a generated
// X-Request-Id are masked. For a change that must not move a byte of a read.
//   npx tsx script/bench/lib/response-bytes-ab.ts /tmp/before .   (IDS=400; CORS=<origin>; LIMIT=40: past the limit)
// A checkout outside the repository needs node_modules: `ln -s <repo>/node_modules /tmp/before/`.
import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import { getRequestListener } from "@hono/node-server";
import pg from "pg";
import { privateKeyToAccount, generatePrivateKey } from "viem/accounts";
import { ensurePostgres } from "../../lib/postgres.ts";
import { getDataset, PONDER_SCHEMA } from "./dataset.ts";

type Res = typeof ServerResponse;
function requestOf(path: string, headers: Record<string, string>, Res: Res): [IncomingMessage, ServerResponse, Promise<string>] {
  const socket = new Socket();
  Object.defineProperty(socket, "remoteAddress", { value: "127.0.0.1" });
  const req = new IncomingMessage(socket);
  req.method = "GET"; req.url = path; req.httpVersion = "1.1"; req.httpVersionMajor = 1; req.httpVersionMinor = 1;
  const all = { host: "127.0.0.1:3000", accept: "application/json", ...headers };
  req.rawHeaders = Object.entries(all).flat();
  req.headers = Object.fromEntries(Object.entries(all).map(([k, v]) => [k.toLowerCase(), v]));
  req.complete = true; req.push(null);
  const res = new Res(req);
  const sent = new Promise<string>((resolve) => {
    const end = res.end.bind(res);
    res.end = ((...a: Parameters<ServerResponse["end"]>) => {
      const r = end(...a);
      resolve((res as unknown as { outputData: { data: string | Buffer }[] }).outputData.map((o) => String(o.data)).join(""));
      return r;
    }) as ServerResponse["end"];
  });
  return [req, res, sent];
}

const pgh = await ensurePostgres({ ephemeral: true, log: () => {} });
const ds = await getDataset({ smoke: true, missions: Number(process.env.MISSIONS ?? 2000), scratchDir: "/tmp", shared: new Map(), log: () => {}, postgresUrl: async () => pgh.url });
const roots = process.argv.slice(2).map((r) => (r === "." ? process.cwd() : r));
const secret = "compare-secret-compare-secret-0123456789";
const sides: { root: string; listener: (req: IncomingMessage, res: ServerResponse) => Promise<void>; Res: Res; api: Awaited<ReturnType<typeof import("../../../api/app.ts").createServer>> }[] = [];
for (const root of roots) {
  const mod = (await import(`${root}/api/app.ts`)) as { createServer: typeof import("../../../api/app.ts").createServer; serveOptions?: () => { serverOptions: { ServerResponse?: Res } } };
  const api = await mod.createServer({ overrides: {
    NODE_ENV: "production", LOG_LEVEL: "warn", DATABASE_URL: ds.databaseUrl, CHAIN_SCHEMA: ds.chainSchema, CHAIN_ID: "31337",
    DEPLOYMENT_FILE: "/nonexistent/deployment.json", INDEXER_URL: "http://127.0.0.1:9", RPC_URL: "http://127.0.0.1:9",
    JWT_SECRET: secret, MIGRATE_ON_START: "false", REACTORS_ENABLED: "false", KEEPER_INTERVAL_MS: "0",
    CORS_ORIGINS: process.env.CORS ?? "", RATE_LIMIT_ANON_PER_MIN: process.env.LIMIT ?? "1000000", RATE_LIMIT_USER_PER_MIN: process.env.LIMIT ?? "1000000",
  } });
  sides.push({ root, api, listener: getRequestListener(api.app.fetch) as unknown as (req: IncomingMessage, res: ServerResponse) => Promise<void>, Res: mod.serveOptions?.().serverOptions.ServerResponse ?? ServerResponse });
}
// Three signed-in viewers: A poster of some missions, B performer of some, C a stranger.
const accounts = [0, 1, 2].map(() => privateKeyToAccount(generatePrivateKey()));
const tokens: string[] = [];
for (const a of accounts) {
  const auth = sides[0]!.api.deps.services.auth;
  const { message } = await auth.createMessage(a.address, "127.0.0.1");
  tokens.push((await auth.verify(a.address, await a.signMessage({ message }))).token);
}
const pool = new pg.Pool({ connectionString: ds.databaseUrl });
const ids = await ds.missionIds(Number(process.env.IDS ?? 400));
const [A, B] = accounts.map((a) => a.address);
await pool.query(`UPDATE ${PONDER_SCHEMA}.missions SET poster = $1 WHERE id = ANY($2)`, [A, ids.slice(0, 60)]);
await pool.query(`UPDATE ${PONDER_SCHEMA}.missions SET performer = $1 WHERE id = ANY($2)`, [B, ids.slice(40, 100)]);
// Privacy settings: hide or guild-limit the display name of about two thirds of the users.
await pool.query(`INSERT INTO api.vaults (user_id, permissions)
  SELECT id, CASE abs(hashtext(id::text)) % 3 WHEN 0 THEN '{"profileVisibility":{"displayName":"private"}}'::jsonb
                                             WHEN 1 THEN '{"profileVisibility":{"displayName":"guilds_only","bio":"private"}}'::jsonb
                                             ELSE '{"notifications":{"push":false}}'::jsonb END FROM api.users
  ON CONFLICT (user_id) DO UPDATE SET permissions = excluded.permissions`);
const paths = [...ids.map((id) => `/missions/${id}`), "/missions/00000000-0000-0000-0000-000000000000", "/missions/not-a-uuid", "/v2/missions/" + ids[0], "/missions/" + ids[1] + "/"];
const viewers: [string, Record<string, string>][] = [
  ["anon", {}],
  ["anon+id", { "X-Request-Id": "req-fixed-1" }],
  ["anon+origin", { Origin: "https://app.example.test", "X-Request-Id": "r2" }],
  ...tokens.map((t, i): [string, Record<string, string>] => [`signed${"ABC"[i]}`, { Authorization: `Bearer ${t}`, "X-Request-Id": "r3" }]),
];
const mask = (t: string) => t.replace(/^Date: .*$/gm, "Date: *").replace(/^(X-RateLimit-Reset|Retry-After): .*$/gim, "$1: *").replace(/^X-Request-Id: [0-9a-f-]{36}\r$/m, "X-Request-Id: <uuid>\r");
let n = 0, diff = 0, windowShifted = 0;
const statuses = new Map<string, number>();
for (const [name, headers] of viewers) for (const p of paths) {
  const texts: string[] = [];
  for (const s of sides) {
    const [req, res, sent] = requestOf(p, headers, s.Res);
    await s.listener(req, res);
    texts.push(mask(await sent));
  }
  n++;
  // Each checkout counts in its own limiter: when a minute window ends between two sides' requests, their
  // X-RateLimit-Remaining parts for the rest of that window. Counted apart, then masked.
  const remaining = texts.map((t) => /^X-RateLimit-Remaining: (.*)\r$/im.exec(t)?.[1]);
  if (remaining.some((r) => r !== remaining[0])) windowShifted++;
  for (let i = 0; i < texts.length; i++) texts[i] = texts[i]!.replace(/^(X-RateLimit-Remaining): .*$/gim, "$1: *");
  const st = texts[0]!.split("\r\n")[0]!;
  statuses.set(`${name} ${st}`, (statuses.get(`${name} ${st}`) ?? 0) + 1);
  if (texts.some((t) => t !== texts[0])) {
    if (diff++ < 5) {
      // The lines that differ (a header's value, the body), side by side.
      const lines = texts.map((t) => t.split("\r\n"));
      const at = lines[0]!.flatMap((l, i) => (lines.some((ls) => ls[i] !== l) ? [i] : []));
      console.log(`DIFF ${name} ${p}: ${at.map((i) => lines.map((ls) => ls[i]).join(" | ")).join("; ")}`);
    }
  }
}
console.log(`${n} responses compared, ${diff} differ (X-RateLimit-Remaining apart on ${windowShifted}: a window ended between the sides)`);
console.log([...statuses].map(([k, v]) => `${k}: ${v}`).join("\n"));
await pool.end();
for (const s of sides) await s.api.close();
await pgh.stop();
process.exit(0);
