import { Transform } from 'class-transformer';
import { IsString, MaxLength, MinLength } from 'class-validator';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/**
 * `{email}` for email-check, magic-generate and forgot-password. Only the type is checked here;
 * a malformed address is a 422 `INVALID_EMAIL` (Plane's name) from the service.
 */
export class EmailDto {
  @Transform(trim)
  @IsString()
  @MinLength(1)
  @MaxLength(320)
  email: string;
}

/** `POST /auth/magic-sign-in/`: `{email, code}`; the code is `xxxx-xxxx-xxxx`. */
export class MagicSignInDto {
  @Transform(trim)
  @IsString()
  @MinLength(1)
  @MaxLength(320)
  email: string;

  @Transform(trim)
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  code: string;
}

/** `POST /auth/token/refresh/`: `{refresh_token}`. */
export class RefreshDto {
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  refresh_token: string;
}

/** `POST /auth/reset-password/`: `{token, password}`; the password needs 8 to 128 characters. */
export class ResetPasswordDto {
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  token: string;

  @IsString()
  @MinLength(8)
  @MaxLength(128)
  password: string;
}

/** `POST /auth/change-password/`: `{old_password, new_password}`; the new one needs 8 to 128 characters. */
export class ChangePasswordDto {
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  old_password: string;

  @IsString()
  @MinLength(8)
  @MaxLength(128)
  new_password: string;
}

/** `POST /auth/set-password/`: `{password}` (8 to 128 characters). */
export class SetPasswordDto {
  @IsString()
  @MinLength(8)
  @MaxLength(128)
  password: string;
}
