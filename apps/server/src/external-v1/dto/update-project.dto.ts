import { Allow } from 'class-validator';
import { UpdateProjectDto } from '../../shared/dto/project.dto';

/**
 * `PATCH /api/v1/workspaces/{slug}/projects/{project_id}/` (Plane `plane/api/views/project.py`
 * ProjectAPIEndpoint.patch): the shared update fields; read-only keys of the project (counts, ids,
 * timestamps), which clients send back with a fetched object, are accepted and ignored, as Plane does.
 */
export class UpdateProjectV1Dto extends UpdateProjectDto {
  // read-only in Plane: accepted, ignored
  @Allow() id?: unknown;
  @Allow() workspace?: unknown;
  @Allow() created_at?: unknown;
  @Allow() updated_at?: unknown;
  @Allow() deleted_at?: unknown;
  @Allow() created_by?: unknown;
  @Allow() updated_by?: unknown;
  @Allow() total_members?: unknown;
  @Allow() total_cycles?: unknown;
  @Allow() total_modules?: unknown;
  @Allow() is_member?: unknown;
  @Allow() member_role?: unknown;
  @Allow() is_deployed?: unknown;
  @Allow() sort_order?: unknown;
  @Allow() cover_image_url?: unknown;
  @Allow() cover_image_asset?: unknown;
  @Allow() archived_at?: unknown;
  @Allow() is_issue_type_enabled?: unknown;
}
