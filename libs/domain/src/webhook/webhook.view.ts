import { iso } from '../kernel/time';
import { Webhook } from './webhook.entity';
import { WebhookLog } from './webhook-log.entity';

/**
 * Plane's WebhookSerializer (reference `plane/app/serializers/webhook.py`), without `secret_key`:
 * the secret appears only in the answers to create and regenerate.
 */
export function webhookView(w: Webhook) {
  return {
    id: w.id,
    url: w.url,
    is_active: w.isActive,
    project: w.project,
    issue: w.issue,
    module: w.module,
    cycle: w.cycle,
    issue_comment: w.issueComment,
    workspace: w.workspaceId,
    created_at: iso(w.createdAt),
    updated_at: iso(w.updatedAt),
    created_by: w.createdById,
    updated_by: w.updatedById,
  };
}
export type WebhookJson = ReturnType<typeof webhookView>;

/** Plane's WebhookLogSerializer, plus `delivery_id` (the `X-Plane-Delivery` of the attempt). */
export function webhookLogView(l: WebhookLog) {
  return {
    id: l.id,
    webhook: l.webhookId,
    workspace: l.workspaceId,
    delivery_id: l.deliveryId,
    event_type: l.eventType,
    request_method: l.requestMethod,
    request_headers: l.requestHeaders,
    request_body: l.requestBody,
    response_status: l.responseStatus,
    response_headers: l.responseHeaders,
    response_body: l.responseBody,
    retry_count: l.retryCount,
    created_at: iso(l.createdAt),
    updated_at: iso(l.updatedAt),
    created_by: l.createdById,
    updated_by: l.updatedById,
  };
}
export type WebhookLogJson = ReturnType<typeof webhookLogView>;
