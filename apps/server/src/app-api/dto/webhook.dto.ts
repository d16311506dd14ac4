import { Allow, IsBoolean, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import type { WebhookInput } from '#domain';
import { IsOptionalNonNull } from '#common';

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
  @IsOptionalNonNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(1024)
  url?: string;

  @IsOptionalNonNull()
  @IsBoolean()
  is_active?: boolean;

  @IsOptionalNonNull()
  @IsBoolean()
  project?: boolean;

  @IsOptionalNonNull()
  @IsBoolean()
  issue?: boolean;

  @IsOptionalNonNull()
  @IsBoolean()
  module?: boolean;

  @IsOptionalNonNull()
  @IsBoolean()
  cycle?: boolean;

  @IsOptionalNonNull()
  @IsBoolean()
  issue_comment?: boolean;
}

/** `POST /api/workspaces/{slug}/webhooks/`: `url` required; switches default to false, `is_active` to true. */
export class CreateWebhookDto extends UpdateWebhookDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(1024)
  declare url: string;
}
