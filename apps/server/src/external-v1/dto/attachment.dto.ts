import { IsBoolean, IsInt, IsOptional, IsString, MaxLength, Min, MinLength } from 'class-validator';
import { IsOptionalNonNull } from '#common';

/** `POST …/attachments/` (the SDK's `WorkItemAttachmentUploadRequest`): `{name, type?, size, external_id?, external_source?}`; size in bytes, an integer from 1 to `FILE_SIZE_LIMIT` (above: 413 `ATTACHMENT_TOO_LARGE`, nothing stored). */
export class CreateAttachmentDto {
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  name: string;

  @IsOptionalNonNull()
  @IsString()
  @MaxLength(255)
  type?: string;

  @IsInt()
  @Min(1)
  size: number;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  external_id?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  external_source?: string | null;
}

/** `PATCH …/attachments/{id}/`: `{is_uploaded: true}` or an empty body (Plane sends none). */
export class CompleteAttachmentDto {
  @IsOptionalNonNull()
  @IsBoolean()
  is_uploaded?: boolean;
}
