// Push delivery behind an interface. Web Push (RFC 8030/8291, VAPID) via the `web-push` package;
// mobile tokens (ios/android) need FCM/APNs credentials we do not have: they are kept, not sent to.
// `web-push` loads on the first delivery (a copy without VAPID keys never loads it).
// An endpoint is a URL a user gave us: it goes through the webhooks' SSRF guard at registration and
// again at send time (the address actually connected to), and no redirect is followed.
import type { Logger } from "../lib/logger.ts";
import type { DeviceTokenRow } from "../repositories/notifications.repository.ts";
import { postGuarded } from "./webhooks/sender.ts";
import { assertPublicHost } from "./webhooks/ssrf.ts";

export interface PushPayload {
  id: string;
  type: string;
  title: string;
  body: string;
  data: Record<string, unknown>;
}

export type DeliveryResult = "sent" | "gone" | "failed" | "skipped";

export interface PushDelivery {
  readonly enabled: boolean;
  deliver(device: DeviceTokenRow, payload: PushPayload): Promise<DeliveryResult>;
}

/**
 * Why a Web Push endpoint may not be registered, or null when it may: it must be https and resolve
 * only to public addresses, unless private targets are allowed (local development and tests).
 */
export async function endpointRefusal(endpoint: string, allowPrivate: boolean): Promise<string | null> {
  if (allowPrivate) return null;
  const url = new URL(endpoint);
  if (url.protocol !== "https:") return "must be an https URL";
  try {
    await assertPublicHost(url.hostname);
    return null;
  } catch (err) {
    return `must resolve to a public address: ${err instanceof Error ? err.message : String(err)}`;
  }
}

/** What goes over the wire: small and without anything the notification list does not show. */
export const pushBody = (p: PushPayload): string =>
  JSON.stringify({ id: p.id, type: p.type, title: p.title, body: p.body, data: p.data });

export function webPushDelivery(opts: {
  publicKey?: string;
  privateKey?: string;
  subject: string;
  logger: Logger;
  timeoutMs?: number;
  /** Send to loopback/private/link-local addresses too (local development and tests only). */
  allowPrivate?: boolean;
}): PushDelivery {
  const { logger } = opts;
  if (!opts.publicKey || !opts.privateKey) {
    logger.info("push delivery disabled: VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY not set");
    return { enabled: false, deliver: async () => "skipped" };
  }
  const vapidDetails = { subject: opts.subject, publicKey: opts.publicKey, privateKey: opts.privateKey };
  return {
    enabled: true,
    async deliver(device, payload) {
      if (device.platform !== "web") return "skipped";
      const keys = device.keys as { p256dh: string; auth: string } | null;
      if (!keys) return "failed";
      try {
        // web-push builds the RFC 8291 encrypted body and the VAPID headers; the webhooks' guarded POST
        // sends it (SSRF guard, no redirects, our own timeout).
        const { default: webpush } = await import("web-push");
        const req = webpush.generateRequestDetails({ endpoint: device.token, keys }, pushBody(payload), {
          vapidDetails,
          TTL: 24 * 60 * 60,
        });
        const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
        const res = await postGuarded(req.endpoint, headers, req.body as unknown as Uint8Array, {
          timeoutMs: opts.timeoutMs ?? 5_000,
          allowPrivate: opts.allowPrivate ?? false,
          maxResponseBytes: 16 * 1024,
        });
        if (res.ok) return "sent";
        // 404/410: the subscription is gone for good (RFC 8030 §7.3): the caller drops it.
        if (res.responseCode === 404 || res.responseCode === 410) return "gone";
        logger.warn("web push failed", { status: res.responseCode, err: res.error });
        return "failed";
      } catch (err) {
        logger.warn("web push failed", { err: err instanceof Error ? err.message : String(err) });
        return "failed";
      }
    },
  };
}
