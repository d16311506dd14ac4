import { iso } from '../kernel/time';
import { ApiToken } from './api-token.entity';

/**
 * Plane's APIToken serializer without `token` (`plane/app/serializers/api.py` APITokenReadSerializer).
 * The secret itself is added only to the create response, by the service.
 */
export function apiTokenView(token: ApiToken) {
  return {
    id: token.id,
    label: token.label,
    description: token.description,
    is_active: token.isActive,
    last_used: iso(token.lastUsed),
    user_type: token.userType,
    expired_at: iso(token.expiredAt),
    is_service: token.isService,
    user: token.userId,
    workspace: token.workspaceId,
    created_at: iso(token.createdAt),
    updated_at: iso(token.updatedAt),
    deleted_at: iso(token.deletedAt),
    created_by: token.createdById,
    updated_by: token.updatedById,
  };
}
