// The webhook feature's door: what other features and the API modules use.
export { WebhookInput, WebhookService } from './webhook.service';
export { WebhookJson, WebhookLogJson } from './webhook.view';
export { WebhookFeatureModule } from './webhook.module';
