// Push delivery behind an interface. Web Push (RFC 8030/8291, VAPID) via the `web-push` package;
// mobile tokens (ios/android) need FCM/APNs credentials we do not have: they are kept, not sent to.
// `web-push` loads on the first delivery (a copy without VAPID keys never loads it).
import type { Logger } from "../lib/logger.ts";
import type { DeviceTokenRow } from "../repositories/notifications.repository.ts";

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

/** What goes over the wire: small and without anything the notification list does not show. */
export const pushBody = (p: PushPayload): string =>
  JSON.stringify({ id: p.id, type: p.type, title: p.title, body: p.body, data: p.data });

export function webPushDelivery(opts: {
  publicKey?: string;
  privateKey?: string;
  subject: string;
  logger: Logger;
  timeoutMs?: number;
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
        // web-push builds the RFC 8291 encrypted body and the VAPID headers; we send it with fetch
        // (any scheme, our own timeout).
        const { default: webpush } = await import("web-push");
        const req = webpush.generateRequestDetails({ endpoint: device.token, keys }, pushBody(payload), {
          vapidDetails,
          TTL: 24 * 60 * 60,
        });
        const res = await fetch(req.endpoint, {
          method: req.method,
          headers: req.headers as Record<string, string>,
          body: req.body as unknown as Uint8Array,
          signal: AbortSignal.timeout(opts.timeoutMs ?? 5_000),
        });
        await res.arrayBuffer().catch(() => undefined);
        if (res.ok) return "sent";
        // 404/410: the subscription is gone for good (RFC 8030 §7.3): the caller drops it.
        if (res.status === 404 || res.status === 410) return "gone";
        logger.warn("web push refused", { status: res.status });
        return "failed";
      } catch (err) {
        logger.warn("web push failed", { err: err instanceof Error ? err.message : String(err) });
        return "failed";
      }
    },
  };
}
