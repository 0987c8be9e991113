// One HTTP POST of a signed webhook (Standard Webhooks), and the guarded POST under it (also Web
// Push's): node:http/https, so no redirect is ever followed, the connection goes to an address the
// SSRF guard accepted, the response body is read up to a cap, and the whole exchange is bounded by a
// timeout.
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { Webhook } from "standardwebhooks";
import { assertPublicHost, guardedLookup } from "./ssrf.ts";

export interface SendResult {
  ok: boolean;
  responseCode: number | null;
  durationMs: number;
  error: string | null;
}

export interface SendOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  /** Bytes of the response read at most (the rest is discarded with the connection). */
  maxResponseBytes: number;
}

/** `v1,<sig>` for each secret, space-separated (during a rotation both the new and the old one). */
export function signatures(secrets: string[], messageId: string, at: Date, body: string): string {
  return secrets.map((s) => new Webhook(s).sign(messageId, at, body)).join(" ");
}

export async function sendWebhook(url: string, messageId: string, body: string, secrets: string[], opts: SendOptions): Promise<SendResult> {
  const at = new Date();
  return postGuarded(url, {
    "content-type": "application/json",
    "user-agent": "mission-marketplace-webhooks/1",
    "webhook-id": messageId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": signatures(secrets, messageId, at, body),
  }, body, opts);
}

/**
 * One POST to a URL a user gave us (webhooks, Web Push): the SSRF guard on the address actually
 * connected to, no redirect followed, the response read up to a cap, the whole exchange timed out.
 */
export async function postGuarded(url: string, headers: Record<string, string>, body: string | Uint8Array, opts: SendOptions): Promise<SendResult> {
  const started = performance.now();
  const done = (ok: boolean, responseCode: number | null, error: string | null): SendResult =>
    ({ ok, responseCode, error, durationMs: Math.round(performance.now() - started) });
  let target: URL;
  try {
    target = new URL(url);
    const host = target.hostname.replace(/^\[|\]$/g, "");
    // An IP literal never reaches the lookup hook: check it here.
    if (!opts.allowPrivate && net.isIP(host)) await assertPublicHost(host);
  } catch (err) {
    return done(false, null, err instanceof Error ? err.message : String(err));
  }
  const lib = target.protocol === "https:" ? https : http;
  const all = { ...headers, "content-length": String(typeof body === "string" ? Buffer.byteLength(body) : body.byteLength) };
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (r: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(r);
    };
    const req = lib.request(
      target,
      { method: "POST", headers: all, agent: false, ...(opts.allowPrivate ? {} : { lookup: guardedLookup }) },
      (res) => {
        let read = 0;
        res.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read > opts.maxResponseBytes) res.destroy(); // capped: the status is what counts
        });
        const code = res.statusCode ?? 0;
        const end = () => finish(done(code >= 200 && code < 300, code, code >= 200 && code < 300 ? null : `HTTP ${code}`));
        res.on("end", end);
        res.on("close", end);
        res.on("error", end);
      },
    );
    const timer = setTimeout(() => finish(done(false, null, `timed out after ${opts.timeoutMs} ms`)), opts.timeoutMs);
    req.on("error", (err) => finish(done(false, null, err.message)));
    req.end(body);
  });
}
