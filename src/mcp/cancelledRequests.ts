/**
 * `notifications/cancelled` for the server's requests that are still open
 * here. Needed because SDK 1.32.2's Protocol ignores a cancellation whose
 * `requestId` is 0 (`if (!requestId) return`), and 0 is the id of a server's
 * first request: without this, the first question of every session could not
 * be withdrawn. Other ids still reach the SDK's own handler.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CancelledNotificationSchema, type CancelledNotification, type RequestId } from '@modelcontextprotocol/sdk/types.js';

type NotificationHandler = (notification: CancelledNotification) => Promise<void>;

export class OpenRequests {
  private readonly open = new Map<RequestId, AbortController>();

  /** Runs a request handler with a signal that aborts on the SDK's signal or on our own cancellation. */
  async run<T>(id: RequestId, sdkSignal: AbortSignal, handler: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const onAbort = (): void => controller.abort(sdkSignal.reason);
    if (sdkSignal.aborted) onAbort();
    else sdkSignal.addEventListener('abort', onAbort, { once: true });
    this.open.set(id, controller);
    try {
      return await handler(controller.signal);
    } finally {
      sdkSignal.removeEventListener('abort', onAbort);
      if (this.open.get(id) === controller) this.open.delete(id);
    }
  }

  cancel(id: RequestId, reason: unknown): void {
    this.open.get(id)?.abort(reason);
  }

  /** Routes the client's `notifications/cancelled` here first, then to the SDK's handler (kept as it was). */
  listenTo(client: Client): void {
    const handlers = (client as unknown as { _notificationHandlers?: Map<string, NotificationHandler> })._notificationHandlers;
    const sdkHandler = handlers?.get(CancelledNotificationSchema.shape.method.value);
    // Without the SDK's handler to pass on to, leave it alone rather than lose its work.
    if (!sdkHandler) return;
    client.setNotificationHandler(CancelledNotificationSchema, async (notification) => {
      const id = notification.params.requestId;
      if (id !== undefined) this.cancel(id, notification.params.reason ?? 'cancelled by the server');
      await sdkHandler(notification);
    });
  }
}
