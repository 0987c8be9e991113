import type pg from "pg";

export interface Listening {
  /** Stops listening and gives the connection up (no `onLost` after this). */
  close(): void;
}

const CHANNEL = /^[a-z_][a-z0-9_]*$/;

/**
 * Holds one client of the pool for a LISTEN on `channel`. Resolves once the LISTEN is in place;
 * rejects (and frees the client) if the connection cannot be had or breaks before that. Afterwards
 * `onLost` is called at most once, when the connection goes away: a NOTIFY sent meanwhile is gone
 * for good, so the caller re-listens and catches up from its own cursor. The broken client is
 * destroyed rather than returned to the pool.
 */
export async function listen(pool: pg.Pool, channel: string, onNotify: (payload: string | undefined) => void, onLost: (err?: unknown) => void): Promise<Listening> {
  // LISTEN takes an identifier, not a parameter: only plain lower-case names get through.
  if (!CHANNEL.test(channel)) throw new Error(`invalid channel name: ${channel}`);
  const client = await pool.connect();
  // Widened on purpose: the listeners below change it while the LISTEN is awaited.
  let state = "subscribing" as "subscribing" | "open" | "closed";
  const drop = (notify: boolean, err?: unknown) => {
    if (state === "closed") return;
    const wasOpen = state === "open";
    state = "closed";
    client.release(true);
    if (notify && wasOpen) onLost(err);
  };
  client.on("error", (err) => drop(true, err));
  client.on("end", () => drop(true));
  client.on("notification", (msg) => {
    if (state === "open" && msg.channel === channel) onNotify(msg.payload);
  });
  try {
    await client.query(`LISTEN ${channel}`);
  } catch (err) {
    drop(false);
    throw err;
  }
  if (state === "closed") throw new Error(`connection lost while subscribing to ${channel}`);
  state = "open";
  return { close: () => drop(false) };
}
