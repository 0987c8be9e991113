// `npm start`: the whole stack on one machine. PostgreSQL (embedded in .data/pg unless DATABASE_URL),
// anvil (state in .data/anvil-state.json unless RPC_URL), the contracts (deployed if the chain has
// no deployment), then the indexer and the API. Ctrl-C stops everything, in reverse order; the next
// `npm start` reuses the data. Child logs go to .data/logs/.
// `npm start -- --chain-only`: PostgreSQL, the chain and the contracts, without indexer and API.
import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { createPublicClient, http, toHex } from "viem";
import { API_NODE_FLAGS } from "../api/node-flags.ts";
import { anvilAccount, anvilAddress, FUNDED_ACCOUNT_INDEXES, RESOLVER_ACCOUNT_INDEX } from "./lib/accounts.ts";
import { startAnvil } from "./lib/anvil.ts";
import { deploy, findDeployment, type Deployment } from "./lib/deploy.ts";
import { dataDir, defaultDeploymentFile, repoRoot } from "./lib/paths.ts";
import { portIsFree, preferredPort, waitFor } from "./lib/ports.ts";
import { ensurePostgres } from "./lib/postgres.ts";
import { spawnManaged } from "./lib/process.ts";
import { takeLock } from "./lib/start-lock.ts";

interface Service {
  name: string;
  stop: () => Promise<void>;
}

const chainOnly = process.argv.includes("--chain-only");
const started = Date.now();
const services: Service[] = [];
const crashes: Promise<never>[] = [];
let stopping = false;

const shortPath = (p: string) => (p.startsWith(repoRoot) ? path.relative(repoRoot, p) : p);
const seconds = () => `${((Date.now() - started) / 1000).toFixed(1)}s`;
const step = (message: string) => console.log(`[${seconds().padStart(6)}] ${message}`);

const logDir = path.join(dataDir, "logs");
fs.mkdirSync(logDir, { recursive: true });
function logTo(name: string): (line: string) => void {
  const stream = fs.createWriteStream(path.join(logDir, `${name}.log`), { flags: "a" });
  stream.write(`\n--- npm start ${new Date().toISOString()} ---\n`);
  return (line) => stream.write(`${line}\n`);
}

let shuttingDown: Promise<never> | undefined;
function shutdown(code: number): Promise<never> {
  shuttingDown ??= (async () => {
    stopping = true;
    step("stopping...");
    for (const service of services.reverse()) {
      try {
        await service.stop();
        step(`  ${service.name} stopped`);
      } catch (err) {
        console.error(`  ${service.name} did not stop cleanly: ${err instanceof Error ? err.message : err}`);
      }
    }
    process.exit(code);
  })();
  return shuttingDown;
}

// One Ctrl-C can arrive twice (from the terminal and relayed by npm): only a second one a moment
// later forces the exit.
let firstSignalAt = 0;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (!firstSignalAt) {
      firstSignalAt = Date.now();
      void shutdown(0);
    } else if (Date.now() - firstSignalAt > 1_500) {
      console.error("forced exit");
      process.exit(130); // the exit hook still sends SIGINT to the children
    }
  });
}

/**
 * One `npm start` per checkout: .data/start.json names the supervisor and its children, so a second
 * one refuses to share the data, and leftovers of a supervisor that was killed are stopped (pids with
 * their start times, script/lib/start-lock.ts: a reused pid is not taken for the recorded process).
 */
const lockFile = path.join(dataDir, "start.json");
let track: (name: string, pid: number | undefined) => void = () => {};

/**
 * A chain that was reset (anvil's state file deleted) makes the embedded database's indexed data
 * meaningless: Ponder's cache would mix two chains with one id. Block 1 identifies the chain (anvil
 * regenerates its genesis on every load, so block 0 cannot).
 */
async function checkChainIdentity(rpcUrl: string, pgDataDir: string | undefined, recreate: () => Promise<void>) {
  if (!pgDataDir) return;
  const client = createPublicClient({ transport: http(rpcUrl) });
  const block1 = await client.getBlock({ blockNumber: 1n }).catch(() => undefined);
  if (!block1) return;
  const file = `${pgDataDir}.chain.json`;
  const recorded = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as { block1?: string }).block1 : undefined;
  if (recorded && recorded !== block1.hash) {
    step("the chain is new (.data/anvil-state.json was reset): clearing the indexed data in the database");
    await recreate();
  }
  fs.writeFileSync(file, `${JSON.stringify({ block1: block1.hash }, null, 2)}\n`);
}

/**
 * Where things listen. The API takes PORT (default 3000) on HOST (default 127.0.0.1: a laptop's stack
 * stays private; containers set HOST=0.0.0.0); Ponder takes INDEXER_PORT (default 42069) on loopback.
 * A port somebody chose is never moved: if it is taken, npm start stops at once and says so.
 */
interface Listening {
  host: string;
  apiPort: number;
  indexerPort: number;
  indexerPortChosen: boolean;
}

function readListening(env: NodeJS.ProcessEnv): Listening {
  const port = (name: string, fallback: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === "") return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1 || n > 65535) throw new Error(`${name}=${raw} is not a TCP port (1 to 65535)`);
    return n;
  };
  return {
    host: env.HOST || "127.0.0.1",
    apiPort: port("PORT", 3000),
    indexerPort: port("INDEXER_PORT", 42069),
    indexerPortChosen: !!env.INDEXER_PORT,
  };
}

async function checkPorts(l: Listening): Promise<void> {
  if (!(await portIsFree(l.apiPort, l.host))) {
    throw new Error(
      `port ${l.apiPort} is already in use on ${l.host}, so the API cannot listen there. ` +
        "Stop whatever listens on it, or set PORT to a free port (e.g. PORT=4000 npm start).",
    );
  }
  if (l.indexerPortChosen && !(await portIsFree(l.indexerPort))) {
    throw new Error(`INDEXER_PORT ${l.indexerPort} is already in use on 127.0.0.1. Set INDEXER_PORT to a free port.`);
  }
}

/** A URL a browser on this machine can open, whatever address the server binds. */
const localUrl = (host: string, port: number) =>
  `http://${host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host}:${port}`;

async function main(): Promise<void> {
  const listening = readListening(process.env);
  track = await takeLock(lockFile, step);
  // Before anything starts: a taken port must fail in a second, not after the deploy.
  await checkPorts(listening);

  // 1. PostgreSQL
  step(process.env.DATABASE_URL ? "PostgreSQL: using DATABASE_URL" : `PostgreSQL: starting the embedded server (${shortPath(path.join(dataDir, "pg"))})`);
  const postgres = await ensurePostgres({ log: logTo("postgres") });
  services.push({ name: "PostgreSQL", stop: postgres.stop });
  track("PostgreSQL", postgres.pid);
  crashes.push(postgres.crashed);
  if (stopping) return;

  // 2. The chain
  let rpcUrl = process.env.RPC_URL;
  let wsUrl = process.env.RPC_WS_URL;
  if (rpcUrl) {
    step(`chain: using RPC_URL ${rpcUrl}`);
  } else {
    step(`chain: starting anvil (${shortPath(path.join(dataDir, "anvil-state.json"))})`);
    const anvil = await startAnvil({
      port: await preferredPort(8545),
      statePath: path.join(dataDir, "anvil-state.json"),
      log: logTo("anvil"),
    });
    services.push({ name: "anvil", stop: anvil.stop });
    track("anvil", anvil.pid);
    crashes.push(anvil.crashed);
    rpcUrl = anvil.rpcUrl;
    wsUrl = anvil.wsUrl;
  }
  if (stopping) return;

  // 3. The contracts
  const chainId = await createPublicClient({ transport: http(rpcUrl) }).getChainId();
  const deploymentFile = path.resolve(process.env.DEPLOYMENT_FILE ?? defaultDeploymentFile(chainId));
  let deployment: Deployment | undefined = await findDeployment(rpcUrl, deploymentFile);
  if (deployment) {
    step(`contracts: deployment found in ${path.relative(repoRoot, deploymentFile)}`);
  } else {
    step("contracts: deploying (forge script script/Deploy.s.sol; the first build takes a minute)...");
    const t = Date.now();
    deployment = await deploy({ rpcUrl, deploymentFile, log: logTo("deploy") });
    step(`contracts: deployed in ${((Date.now() - t) / 1000).toFixed(1)}s`);
  }
  if (!process.env.RPC_URL) await checkChainIdentity(rpcUrl, postgres.dataDir, postgres.recreateDatabase);
  if (stopping) return;

  // 4. The indexer (script/lib/indexer.ts, when it exists)
  let indexerUrl: string | undefined;
  const indexerModule = path.join(repoRoot, "script/lib/indexer.ts");
  if (chainOnly) {
    step("indexer and API: skipped (--chain-only)");
  } else if (fs.existsSync(indexerModule)) {
    step("indexer: starting Ponder...");
    const { startIndexer } = (await import(indexerModule)) as {
      startIndexer(options: {
        databaseUrl: string;
        rpcUrl: string;
        wsUrl?: string;
        deploymentFile: string;
        schema?: string;
        port?: number;
        log?: (line: string) => void;
      }): Promise<{ url: string; pid?: number; crashed?: Promise<never>; stop(): Promise<void> }>;
    };
    const indexer = await startIndexer({
      databaseUrl: postgres.url,
      rpcUrl,
      wsUrl,
      deploymentFile,
      port: listening.indexerPortChosen ? listening.indexerPort : await preferredPort(listening.indexerPort),
      log: logTo("indexer"),
    });
    services.push({ name: "indexer", stop: indexer.stop });
    track("indexer", indexer.pid);
    if (indexer.crashed) crashes.push(indexer.crashed);
    indexerUrl = indexer.url;
  } else {
    step("indexer: skipped (script/lib/indexer.ts does not exist yet)");
  }
  if (stopping) return;

  // 5. The API (api/server.ts, when it exists), as its own process
  let apiUrl: string | undefined;
  const apiEntry = path.join(repoRoot, "api/server.ts");
  if (chainOnly) {
    // skipped above
  } else if (fs.existsSync(apiEntry) && indexerUrl) {
    const port = listening.apiPort;
    step("API: starting...");
    const api = spawnManaged("api", process.execPath, [...API_NODE_FLAGS, "--import", "tsx", apiEntry], {
      cwd: repoRoot,
      env: { ...process.env, ...apiEnv(deployment, { databaseUrl: postgres.url, rpcUrl, deploymentFile, indexerUrl, port, host: listening.host }) },
      onLine: logTo("api"),
    });
    services.push({ name: "API", stop: () => api.stop("SIGINT") });
    track("API", api.pid);
    crashes.push(api.crashed);
    apiUrl = localUrl(listening.host, port);
    await waitFor("the API to answer", async () => (await fetch(`${apiUrl}/openapi.json`)).status < 500, {
      timeoutMs: 60_000,
      abort: api.crashed,
    });
  } else {
    step(`API: skipped (${fs.existsSync(apiEntry) ? "it needs the indexer" : "api/server.ts does not exist yet"})`);
  }
  if (stopping) return;

  printReady({ databaseUrl: postgres.url, rpcUrl, deployment, deploymentFile, indexerUrl, apiUrl, host: listening.host });
  Promise.race(crashes).catch((err: unknown) => {
    console.error(`\n${err instanceof Error ? err.message : err}`);
    void shutdown(1);
  });
}

function apiEnv(
  deployment: Deployment,
  o: { databaseUrl: string; rpcUrl: string; deploymentFile: string; indexerUrl: string; port: number; host: string },
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    HOST: o.host,
    PORT: String(o.port),
    DATABASE_URL: o.databaseUrl,
    RPC_URL: o.rpcUrl,
    DEPLOYMENT_FILE: o.deploymentFile,
    INDEXER_URL: o.indexerUrl,
  };
  // Locally the relayer is anvil's well-known account 0 (derived from the public mnemonic).
  const local = anvilAccount(0);
  if (!process.env.RELAYER_PRIVATE_KEY && !process.env.RELAYER_PRIVATE_KEYS && deployment.chainId === 31337 && deployment.relayer === local.address) {
    env.RELAYER_PRIVATE_KEY = toHex(local.getHdKey().privateKey!);
  }
  // Locally a developer points webhooks and Web Push at their own machine; elsewhere private targets stay refused.
  if (deployment.chainId === 31337 && !process.env.WEBHOOKS_ALLOW_PRIVATE_URLS) env.WEBHOOKS_ALLOW_PRIVATE_URLS = "true";
  if (deployment.chainId === 31337 && !process.env.PUSH_ALLOW_PRIVATE_URLS) env.PUSH_ALLOW_PRIVATE_URLS = "true";
  // A stable local secret, so sign-ins survive a restart; never used off this machine.
  if (!process.env.JWT_SECRET) {
    const secretFile = path.join(dataDir, "jwt-secret");
    if (!fs.existsSync(secretFile)) fs.writeFileSync(secretFile, randomBytes(32).toString("hex"), { mode: 0o600 });
    env.JWT_SECRET = fs.readFileSync(secretFile, "utf8").trim();
  }
  return env;
}

function printReady(o: {
  databaseUrl: string;
  rpcUrl: string;
  deployment: Deployment;
  deploymentFile: string;
  indexerUrl?: string;
  apiUrl?: string;
  host: string;
}): void {
  const lines = [
    "",
    `Ready in ${seconds()}.`,
    `  API          ${o.apiUrl ? `${o.apiUrl}${o.apiUrl.includes(o.host) ? "" : ` (listening on ${o.host})`}  docs ${o.apiUrl}/docs  GraphQL ${o.apiUrl}/graphql` : "(not started)"}`,
    `  indexer      ${o.indexerUrl ?? "(not started)"}`,
    `  chain        ${o.rpcUrl} (chain ${o.deployment.chainId})`,
    `  PostgreSQL   ${o.databaseUrl}`,
    `  deployment   ${path.relative(repoRoot, o.deploymentFile) || o.deploymentFile}`,
  ];
  if (o.deployment.chainId === 31337) {
    lines.push(
      "",
      "Accounts (anvil's well-known test keys from the public mnemonic",
      '"test test test test test test test test test test test junk": never send them real funds):',
      `  #0  ${anvilAddress(0)}  deployer, admin and relayer`,
      ...FUNDED_ACCOUNT_INDEXES.map(
        (i) => `  #${i}  ${anvilAddress(i)}  100,000 tUSDC, escrow approved, relayer approved${i === 1 ? ", demo-guild admin" : ""}`,
      ),
      `  #${RESOLVER_ACCOUNT_INDEX}  ${anvilAddress(RESOLVER_ACCOUNT_INDEX)}  dispute resolver`,
    );
  }
  lines.push("", "Press Ctrl-C to stop.");
  console.log(lines.join("\n"));
}

main().catch(async (err: unknown) => {
  console.error(`\nnpm start failed: ${err instanceof Error ? err.message : err}`);
  console.error(`(logs in ${path.relative(process.cwd(), logDir)}/)`);
  await shutdown(1);
});
