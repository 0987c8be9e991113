// Who may keep a /ws connection: open connections per IP and per user are capped, and a signed-in
// connection lives only as long as its session. A revocation (users.session_epoch raised, e.g. by
// DELETE /vault/delete) reaches every copy through LISTEN session_revoked and closes the old
// session's sockets at once; a periodic re-check of the open sessions' epochs (one query per pass
// for all of them) catches what a lost LISTEN connection missed, and closes sockets whose token
// expired. Nothing here runs per message: the fan-out never looks at sessions.
import type { Listening } from "../../db/listen.ts";
import type { Logger } from "../../lib/logger.ts";

/** Close code of a socket whose session ended (4000-4999: the application's; 4401 mirrors HTTP 401). */
export const SESSION_ENDED = 4401;

export interface SessionSource {
  epochs(userIds: string[]): Promise<Map<string, number>>;
  listen(onRevoked: (userId: string, epoch: number) => void, onLost: (err?: unknown) => void): Promise<Listening>;
}

export interface WatchedSession {
  userId: string;
  epoch: number;
  /** Token expiry, ms since the epoch. */
  expiresAtMs: number;
  end(reason: string): void;
}

/** Counts open connections per key; `take` fails when the key is at its cap. */
function counter(max: number) {
  const open = new Map<string, number>();
  return {
    full: (key: string) => (open.get(key) ?? 0) >= max,
    take: (key: string) => void open.set(key, (open.get(key) ?? 0) + 1),
    give: (key: string) => {
      const n = (open.get(key) ?? 0) - 1;
      if (n > 0) open.set(key, n);
      else open.delete(key);
    },
  };
}

export function connectionCaps(maxPerIp: number, maxPerUser: number) {
  const ips = counter(maxPerIp);
  const users = counter(maxPerUser);
  return {
    maxPerIp,
    maxPerUser,
    /** Takes a slot (synchronously, so concurrent upgrades cannot overshoot); release it exactly once. */
    reserve(ip: string, userId: string | null): { release(): void } | { refused: "ip" | "user" } {
      if (ips.full(ip)) return { refused: "ip" };
      if (userId !== null && users.full(userId)) return { refused: "user" };
      ips.take(ip);
      if (userId !== null) users.take(userId);
      let held = true;
      return {
        release() {
          if (!held) return;
          held = false;
          ips.give(ip);
          if (userId !== null) users.give(userId);
        },
      };
    },
  };
}

export function watchSessions(source: SessionSource, opts: { recheckMs: number; reconnectMs: number; logger: Logger }) {
  const byUser = new Map<string, Set<WatchedSession>>();
  let stopped = false;
  let listening: Listening | null = null;
  let retry: NodeJS.Timeout | undefined;

  const endOlder = (userId: string, epoch: number, reason: string) => {
    for (const s of byUser.get(userId) ?? []) if (s.epoch !== epoch) s.end(reason);
  };

  /** Every open session against the database (and the clock); one query whatever their number. */
  const recheck = async () => {
    const now = Date.now();
    for (const set of byUser.values()) for (const s of set) if (s.expiresAtMs <= now) s.end("token expired: sign in again");
    if (byUser.size === 0) return;
    const epochs = await source.epochs([...byUser.keys()]);
    for (const userId of [...byUser.keys()]) {
      const epoch = epochs.get(userId);
      if (epoch === undefined) for (const s of byUser.get(userId) ?? []) s.end("session ended: sign in again");
      else endOlder(userId, epoch, "session revoked: sign in again");
    }
  };
  const safeRecheck = () => recheck().catch((err) => opts.logger.warn("ws session re-check failed", { err: String(err) }));

  const listen = async () => {
    if (stopped) return;
    try {
      const l = await source.listen((userId, epoch) => endOlder(userId, epoch, "session revoked: sign in again"), () => {
        listening = null;
        if (!stopped) retry = setTimeout(() => void listen(), opts.reconnectMs);
      });
      if (stopped) return l.close();
      listening = l;
      await safeRecheck(); // what was revoked while no connection was listening
    } catch (err) {
      opts.logger.warn("ws session listen failed", { err: String(err) });
      if (!stopped) retry = setTimeout(() => void listen(), opts.reconnectMs);
    }
  };
  void listen();
  const timer = setInterval(() => void safeRecheck(), opts.recheckMs);
  timer.unref();

  return {
    /** Watches a session until the returned function is called (the socket closed). */
    add(s: WatchedSession): () => void {
      let set = byUser.get(s.userId);
      if (!set) byUser.set(s.userId, (set = new Set()));
      set.add(s);
      return () => {
        set.delete(s);
        if (set.size === 0 && byUser.get(s.userId) === set) byUser.delete(s.userId);
      };
    },
    recheck,
    close() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(retry);
      const l = listening;
      listening = null;
      l?.close();
    },
  };
}
export type SessionWatch = ReturnType<typeof watchSessions>;
