import net from "node:net";

/** A TCP port on 127.0.0.1 that was free a moment ago (the OS picks it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === "object") resolve(address.port);
        else reject(new Error("could not allocate a free port"));
      });
    });
  });
}

/** Resolves once `check` returns true; rejects after `timeoutMs` or as soon as `abort` rejects. */
export async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  { timeoutMs = 30_000, intervalMs = 100, abort }: { timeoutMs?: number; intervalMs?: number; abort?: Promise<never> } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let aborted: unknown;
  abort?.catch((err: unknown) => {
    aborted = err ?? new Error(`${what}: aborted`);
  });
  for (;;) {
    if (aborted) throw aborted;
    // A check that never settles (a request to a hung process) must not outlive the deadline.
    const left = Math.max(deadline - Date.now(), intervalMs);
    let timer: NodeJS.Timeout | undefined;
    const ok = await Promise.race([
      check().catch(() => false),
      new Promise<false>((r) => (timer = setTimeout(() => r(false), left))),
    ]).finally(() => clearTimeout(timer));
    if (ok) return;
    if (aborted) throw aborted;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Whether a server could listen on `port` at `host` right now. */
export function portIsFree(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once("error", () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/** `preferred` when nothing listens on it (a familiar URL for people), else any free port. */
export async function preferredPort(preferred: number): Promise<number> {
  return (await portIsFree(preferred)) ? preferred : freePort();
}
