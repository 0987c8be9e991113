// The sending loop of a leased outbox (webhooks, Web Push): every API copy runs one per outbox.
// Claims are leased rows, so copies never send the same row at once; at most `concurrency` sends are
// in flight, and each outbox's claim decides how many one owner may hold (one endpoint, one user).
// When it runs: on a wake-up from PostgreSQL (LISTEN), when one of its sends finishes, and at the next
// due time it reads after each round (a retry, or another copy's lease running out); `pollMs` only
// bounds that sleep, so an idle outbox costs no queries.
import type { Listening } from "../db/listen.ts";
import type { Logger } from "../lib/logger.ts";

export interface OutboxPumpOptions<T> {
  /** Leases up to `limit` rows that are due. */
  claim(limit: number): Promise<T[]>;
  /** Milliseconds until the next row becomes claimable; 0 if one is due now, null when nothing is pending. */
  nextDueMs(): Promise<number | null>;
  /** Sends one claimed row and records the outcome; a throw is logged. */
  deliver(row: T): Promise<void>;
  /** Wake-ups from the database; without it the pump polls every `pollMs`. */
  listen?: (onNotify: () => void, onLost: (err?: unknown) => void) => Promise<Listening>;
  concurrency: number;
  pollMs: number;
  logger: Logger;
  /** Names the outbox in log lines. */
  name: string;
}

export interface OutboxPump {
  /** Starts the loop (once): listens, then looks at the outbox. */
  start(): void;
  stop(): Promise<void>;
}

/** A head found due right after a round that had room for it: only a commit racing the round; look again soon. */
const MIN_WAIT_MS = 50;
const RELISTEN_MS = 1_000;

/** Builds the pump; nothing runs until start(). */
export function outboxPump<T>(o: OutboxPumpOptions<T>): OutboxPump {
  const { logger, name } = o;
  const inFlight = new Set<Promise<void>>();
  let started = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let pumping: Promise<void> | null = null;
  const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

  // One round at a time; a wake-up during a round runs one more (its commit may have missed the claim).
  let again = false;
  function pump(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (pumping) {
      again = true;
      return pumping;
    }
    pumping = (async () => {
      for (;;) {
        let full: boolean;
        do {
          again = false;
          full = await claimAndSend();
        } while (again && !stopped);
        // Every slot busy: a finishing send starts the next round. Otherwise sleep until the next due time.
        if (full) return wakeIn(o.pollMs);
        const due = await o.nextDueMs().catch((err) => {
          logger.warn(`${name} outbox read failed`, { err: message(err) });
          return null;
        });
        if (again && !stopped) continue; // a send finished or a wake-up came while reading
        return wakeIn(due === null ? o.pollMs : Math.min(o.pollMs, Math.max(MIN_WAIT_MS, due)));
      }
    })().finally(() => (pumping = null));
    return pumping;
  }

  /** Claims what is due into the free slots; true when every slot is taken afterwards. */
  async function claimAndSend(): Promise<boolean> {
    try {
      const free = o.concurrency - inFlight.size;
      if (free <= 0) return true;
      for (const row of await o.claim(free)) {
        const p: Promise<void> = o
          .deliver(row)
          .catch((err) => logger.warn(`${name} delivery failed to record`, { err: message(err) }))
          .finally(() => {
            inFlight.delete(p);
            void pump();
          });
        inFlight.add(p);
      }
    } catch (err) {
      logger.warn(`${name} claim failed`, { err: message(err) });
    }
    return inFlight.size >= o.concurrency;
  }

  function wakeIn(ms: number) {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => void pump(), ms);
  }

  // The wake-up connection, replaced when lost; each (re)start looks at the outbox (what committed meanwhile).
  let listening: Listening | null = null;
  let relisten: NodeJS.Timeout | undefined;
  async function subscribe() {
    if (stopped || !o.listen) return;
    try {
      const l = await o.listen(() => void pump(), () => {
        listening = null;
        if (!stopped) relisten = setTimeout(() => void subscribe(), RELISTEN_MS);
      });
      if (stopped) return l.close();
      listening = l;
    } catch (err) {
      logger.warn(`${name} wake-up listen failed`, { err: message(err) });
      if (!stopped) relisten = setTimeout(() => void subscribe(), RELISTEN_MS);
    }
    void pump();
  }

  return {
    start() {
      if (started || stopped) return;
      started = true;
      if (o.listen) void subscribe();
      else void pump();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      clearTimeout(relisten);
      listening?.close();
      // A claim under way still hands its rows to deliveries: wait for it, then for every send.
      await pumping?.catch(() => {});
      await Promise.allSettled([...inFlight]);
    },
  };
}
