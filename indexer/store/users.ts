// Per-user stats rows: created by the first change, all counters starting at zero.
import { userStats } from "ponder:schema";
import { type Addr, type Ctx, lc } from "./types.ts";

export type UserRow = typeof userStats.$inferSelect;

const fresh = (address: Addr, now: bigint): UserRow => ({
  address: lc(address),
  totalEarned: 0n,
  totalSpent: 0n,
  missionsPosted: 0,
  missionsCompleted: 0,
  disputesWon: 0,
  disputesLost: 0,
  ratingCount: 0,
  ratingSum: 0,
  reputation: 0,
  totalXP: 0,
  level: 1,
  streakCount: 0,
  lastCompletionAt: null,
  firstMissionAwarded: false,
  builderScore: null,
  firstSeenAt: now,
  updatedAt: now,
});

/** The user's row, or the zero row of a user not seen yet (not stored). */
export async function getUser(context: Ctx, address: Addr, now: bigint): Promise<UserRow> {
  // A copy: Ponder's cache hands out the row object it later mutates on update.
  const found = await context.db.find(userStats, { address: lc(address) });
  return found ? { ...found } : fresh(address, now);
}

/** Applies `change` (a function of the current row) in one upsert. */
export async function updateUser(
  context: Ctx,
  address: Addr,
  now: bigint,
  change: (row: UserRow) => Partial<UserRow>,
): Promise<UserRow> {
  const zero = fresh(address, now);
  return context.db
    .insert(userStats)
    .values({ ...zero, ...change(zero) })
    .onConflictDoUpdate((row) => ({ ...change(row), updatedAt: now }));
}

type Change = (row: UserRow) => Partial<UserRow>;

/**
 * The users one handler changes, each read at most once (a find) and written once (`flush`), instead of
 * an upsert per change: a completion touches the performer four to six times and the poster once or
 * twice. A user the handler edits but never reads (the poster of a completion) is not found at all:
 * its changes wait, in order, and `flush` applies them in one upsert (to the stored row, or to the zero
 * row of a new user), so such a user costs one store call instead of two. Every user write of the
 * handler must go through the same set (a direct `updateUser` on a user the set holds would be
 * overwritten by its flush). Rows never stored and never edited are not written.
 */
export class UserSet {
  private readonly rows = new Map<Addr, { row: UserRow | null; pending: Change[]; stored: boolean; dirty: boolean }>();
  constructor(
    private readonly context: Ctx,
    private readonly now: bigint,
  ) {}

  private slot(address: Addr) {
    const key = lc(address);
    let e = this.rows.get(key);
    if (!e) {
      e = { row: null, pending: [], stored: false, dirty: false };
      this.rows.set(key, e);
    }
    return { key, e };
  }

  /** The user's current row in this handler (do not mutate: use `edit`): found once, changes so far applied. */
  async read(address: Addr): Promise<UserRow> {
    const { key, e } = this.slot(address);
    if (e.row === null) {
      const found = await this.context.db.find(userStats, { address: key });
      const row = found ? copyRow(found) : fresh(key, this.now);
      for (const change of e.pending.splice(0)) Object.assign(row, change(row));
      e.row = row;
      e.stored = found !== null;
    }
    return e.row;
  }

  /** Applies `change` (a function of the current row) to the working row, or keeps it for `flush` when the row was not read. */
  async edit(address: Addr, change: Change): Promise<void> {
    const { e } = this.slot(address);
    if (e.row === null) e.pending.push(change);
    else Object.assign(e.row, change(e.row));
    e.dirty = true;
  }

  /**
   * Runs `fn` on the user's working row (it may change the row and returns what it computed) and
   * writes the result, without a find when the row was not read: one upsert whose values are `fn` run
   * on the zero row and whose conflict callback runs `fn` again on the stored row (the result of the
   * run that was written is returned). `fn` must be a pure function of the row. A row already read
   * is changed in the set and written at `flush`, as `edit` does.
   */
  async apply<R>(address: Addr, fn: (row: UserRow) => R): Promise<R> {
    const { key, e } = this.slot(address);
    e.dirty = true;
    if (e.row !== null) return fn(e.row);
    const changes = e.pending.splice(0);
    const run = (from: UserRow) => {
      const row = from;
      for (const change of changes) Object.assign(row, change(row));
      return { row, result: fn(row) };
    };
    const inserted = run(fresh(key, this.now));
    let updated: { row: UserRow; result: R } | undefined;
    const written = await this.context.db
      .insert(userStats)
      .values(inserted.row)
      .onConflictDoUpdate((stored) => {
        updated = run(copyRow(stored));
        return { ...updated.row, updatedAt: this.now };
      });
    e.row = copyRow(written);
    e.stored = true;
    e.dirty = false;
    return (updated ?? inserted).result;
  }

  /** Writes every edited row once, with updatedAt = the event's time: an update or insert of a read row, an upsert of an unread one. */
  async flush(): Promise<void> {
    for (const [address, e] of this.rows) {
      if (!e.dirty) continue;
      if (e.row === null) {
        const changes = e.pending.splice(0);
        const apply = (from: UserRow) => {
          const row = { ...from };
          const set: Partial<UserRow> = {};
          for (const change of changes) {
            const part = change(row);
            Object.assign(row, part);
            Object.assign(set, part);
          }
          return { row, set };
        };
        const inserted = apply(fresh(address, this.now)).row;
        await this.context.db
          .insert(userStats)
          .values(inserted)
          .onConflictDoUpdate((stored) => ({ ...apply(copyRow(stored)).set, updatedAt: this.now }));
      } else {
        e.row.updatedAt = this.now;
        if (e.stored) await this.context.db.update(userStats, { address }).set(e.row);
        else await this.context.db.insert(userStats).values(e.row);
        e.stored = true;
      }
      e.dirty = false;
    }
  }
}

/** Runs `fn` with `users` when the caller has a set, else with a set of its own, flushed after. */
export async function withUsers<T>(context: Ctx, now: bigint, users: UserSet | undefined, fn: (users: UserSet) => Promise<T>): Promise<T> {
  if (users) return fn(users);
  const own = new UserSet(context, now);
  const result = await fn(own);
  await own.flush();
  return result;
}

/** A plain copy of a stored row (Ponder hands out a copy-on-write proxy). */
function copyRow(r: UserRow): UserRow {
  return {
    address: r.address,
    totalEarned: r.totalEarned,
    totalSpent: r.totalSpent,
    missionsPosted: r.missionsPosted,
    missionsCompleted: r.missionsCompleted,
    disputesWon: r.disputesWon,
    disputesLost: r.disputesLost,
    ratingCount: r.ratingCount,
    ratingSum: r.ratingSum,
    reputation: r.reputation,
    totalXP: r.totalXP,
    level: r.level,
    streakCount: r.streakCount,
    lastCompletionAt: r.lastCompletionAt,
    firstMissionAwarded: r.firstMissionAwarded,
    builderScore: r.builderScore,
    firstSeenAt: r.firstSeenAt,
    updatedAt: r.updatedAt,
  };
}
