import { IsOptionalNonNull } from '#common';
import { IsString, MaxLength } from 'class-validator';

/** `PATCH …/intakes/{id}/`: an intake object's name and description (other keys are ignored). */
export class UpdateIntakeObjectDto {
  @IsOptionalNonNull() @IsString() @MaxLength(255) name?: string;
  @IsOptionalNonNull() @IsString() description?: string;
}
