import { Allow } from 'class-validator';
import { CreateLinkDto, UpdateLinkDto } from '../../shared/dto/work-item.dto';

/** `POST modules/{id}/module-links/` (Plane's `ModuleLinkSerializer`): `url` (http or https) required; the read-only `module` is ignored. */
export class CreateModuleLinkDto extends CreateLinkDto {
  @Allow() module?: unknown;
}

/** `PATCH modules/{id}/module-links/{link_id}/`: any of `url`, `title`, `metadata`. */
export class UpdateModuleLinkDto extends UpdateLinkDto {
  @Allow() module?: unknown;
}
