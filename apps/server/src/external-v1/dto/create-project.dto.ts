/** `POST /api/v1/workspaces/{slug}/projects/` (reference plane-v1-api.md §8.1). */
export { CreateProjectDto } from '../../shared/dto/project.dto';
