// Postgres advisory locks that elect one leader among API copies, or serialise work across them.
// Every copy (old and new, during a rolling deploy) must agree on the ids, so they are fixed here.
import type pg from "pg";

export const LOCK_IDS = {
  /** The reactor runner: one copy consumes the journal. */
  reactors: 7_301_005,
  /** The deadline keeper's passes. */
  keeper: 7_301_006,
  /** EAS nonces are consumed in order, so sign + submit is serialised; the rating sweeper needs it idle. */
  ratingAttestation: 7_301_051,
} as const;
/** Key space of the keyed locks (two-int advisory locks, apart from the one-bigint ids above). */
const KEYED_LOCK_CLASS = 7_301_060;
export type LockName = keyof typeof LOCK_IDS;

export type LeaderPass<T> = { leader: true; result: T } | { leader: false };

export function locksRepository(pool: pg.Pool) {
  // Sticky leaderships: a session lock held on a connection of its own between passes, so leadership
  // stays with one copy (its in-memory retry counts stay meaningful) until that connection is lost.
  const held = new Map<LockName, pg.PoolClient>();

  /** Transaction-scoped try-lock for one pass: another copy's try fails at once and it skips the pass. */
  async function passLock<T>(name: LockName, work: () => Promise<T>): Promise<LeaderPass<T>> {
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const { rows } = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_xact_lock($1) AS ok", [LOCK_IDS[name]]);
      if (!rows[0]?.ok) return { leader: false };
      return { leader: true, result: await work() };
    } finally {
      // COMMIT releases the lock; a broken connection is thrown away rather than reused.
      let broken = false;
      await client.query("COMMIT").catch(() => (broken = true));
      client.release(broken);
    }
  }

  async function holdSticky(name: LockName): Promise<boolean> {
    const current = held.get(name);
    if (current) {
      try {
        await current.query("SELECT 1");
        return true;
      } catch {
        current.release(true);
        held.delete(name); // connection lost: so is the lock
      }
    }
    const client = await pool.connect();
    try {
      const { rows } = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1) AS ok", [LOCK_IDS[name]]);
      if (rows[0]?.ok) {
        held.set(name, client);
        return true;
      }
    } catch {
      // an unreachable database: not the leader this time
    }
    client.release();
    return false;
  }

  return {
    /**
     * Runs `work` only if this copy is the leader for `name`; otherwise returns `{ leader: false }` at
     * once (nothing waits on the lock). `sticky` keeps the lock after the pass (released by `release`).
     */
    async withLeaderLock<T>(name: LockName, work: () => Promise<T>, opts: { sticky?: boolean } = {}): Promise<LeaderPass<T>> {
      if (!opts.sticky) return passLock(name, work);
      if (!(await holdSticky(name))) return { leader: false };
      return { leader: true, result: await work() };
    },
    /** True while this process holds the sticky lock `name`. */
    holds: (name: LockName) => held.has(name),
    /** Gives up a sticky lock (at shutdown). */
    async release(name: LockName): Promise<void> {
      const client = held.get(name);
      if (!client) return;
      held.delete(name);
      await client.query("SELECT pg_advisory_unlock($1)", [LOCK_IDS[name]]).catch(() => {});
      client.release();
    },
    /**
     * Runs `work` holding the lock of `key` (any string; hashed to an int), or returns null at once
     * when another request of any copy holds it. A pool connection is held for the duration.
     */
    async tryKeyed<T>(key: string, work: () => Promise<T>): Promise<{ result: T } | null> {
      const client = await pool.connect();
      try {
        const { rows } = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok", [KEYED_LOCK_CLASS, key]);
        if (!rows[0]?.ok) return null;
        try {
          return { result: await work() };
        } finally {
          await client.query("SELECT pg_advisory_unlock($1, hashtext($2))", [KEYED_LOCK_CLASS, key]).catch(() => {});
        }
      } finally {
        client.release();
      }
    },
    /** Runs `work` holding `name`, waiting for any other holder to finish first. */
    async withLock<T>(name: LockName, work: () => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query("SELECT pg_advisory_lock($1)", [LOCK_IDS[name]]);
        return await work();
      } finally {
        await client.query("SELECT pg_advisory_unlock($1)", [LOCK_IDS[name]]).catch(() => {});
        client.release();
      }
    },
  };
}
export type LocksRepository = ReturnType<typeof locksRepository>;
