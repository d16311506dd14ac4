import { Allow, IsBoolean, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import type { WebhookInput } from '#domain';

/**
 * Read-only keys of a webhook object, accepted and ignored in write bodies (clients send back
 * what they read, as Plane's serializer allows).
 */
class WebhookReadOnly {
  @Allow() id?: unknown;
  @Allow() workspace?: unknown;
  @Allow() secret_key?: unknown;
  @Allow() created_at?: unknown;
  @Allow() updated_at?: unknown;
  @Allow() created_by?: unknown;
  @Allow() updated_by?: unknown;
}

/** `PATCH /api/workspaces/{slug}/webhooks/{id}/`: Plane's writable fields, all optional. */
export class UpdateWebhookDto extends WebhookReadOnly implements WebhookInput {
  @IsOptional() @IsString() @IsNotEmpty() @MaxLength(1024)
  url?: string;

  @IsOptional() @IsBoolean()
  is_active?: boolean;

  @IsOptional() @IsBoolean()
  project?: boolean;

  @IsOptional() @IsBoolean()
  issue?: boolean;

  @IsOptional() @IsBoolean()
  module?: boolean;

  @IsOptional() @IsBoolean()
  cycle?: boolean;

  @IsOptional() @IsBoolean()
  issue_comment?: boolean;
}

/** `POST /api/workspaces/{slug}/webhooks/`: `url` required; switches default to false, `is_active` to true. */
export class CreateWebhookDto extends UpdateWebhookDto {
  @IsString() @IsNotEmpty() @MaxLength(1024)
  declare url: string;
}
