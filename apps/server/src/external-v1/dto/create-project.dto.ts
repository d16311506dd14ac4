/** `POST /api/v1/workspaces/{slug}/projects/` (Plane `plane/api/views/project.py` ProjectAPIEndpoint.post). */
export { CreateProjectDto } from '../../shared/dto/project.dto';
