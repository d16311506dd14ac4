import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsISO8601, IsOptional, IsUUID, ValidateIf } from 'class-validator';
import { IsOptionalNonNull, NullAsEmptyList } from '#common';

/** `PATCH …/users/notifications/{id}/`: only `snoozed_till` (ISO 8601, or null to wake it). */
export class SnoozeNotificationDto {
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsISO8601({ strict: true })
  snoozed_till?: string | null;
}

/** `POST …/users/notifications/mark-all-read/` (Plane's body). */
export class MarkAllReadDto {
  @IsOptionalNonNull()
  @IsBoolean()
  snoozed?: boolean;

  @IsOptionalNonNull()
  @IsBoolean()
  archived?: boolean;

  @IsOptionalNonNull()
  @IsIn(['all', 'assigned', 'created', 'subscribed', 'watching'])
  type?: string;
}

/** `POST …/issue-subscribers/`: user ids to subscribe. */
export class SubscribersDto {
  @IsOptional()
  @NullAsEmptyList()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsUUID('all', { each: true })
  subscribers?: string[];

  @IsOptionalNonNull()
  @IsUUID()
  subscriber?: string;
}
