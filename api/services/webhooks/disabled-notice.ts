// Tells an owner that their webhook endpoint was disabled: an in-app notification (WEBHOOK_DISABLED),
// created once per disabling and regardless of preferences, since deliveries have stopped.
import type { NotificationsRepository } from "../../repositories/notifications.repository.ts";

export const disabledNotice =
  (notifications: Pick<NotificationsRepository, "insertOnce">) =>
  async (e: { ownerAddress: string; url: string; disabledAt: Date }, endpointId: string): Promise<void> => {
    await notifications.insertOnce(`webhook-disabled:${endpointId}:${e.disabledAt.toISOString()}`, null, [
      {
        address: e.ownerAddress,
        type: "WEBHOOK_DISABLED",
        title: "Webhook endpoint disabled",
        body: `Deliveries to ${e.url} kept failing, so the endpoint was disabled. Register it again once it answers 2xx.`,
        data: { webhookId: endpointId, url: e.url },
      },
    ]);
  };
