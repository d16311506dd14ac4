import { Entity, Index } from 'typeorm';
import { DisplayPropertiesBase } from './display-properties.base';

/** The workspace-wide views' settings (Plane's `workspace_user_properties`): one per user and workspace. */
@Entity({ name: 'workspace_user_properties' })
@Index('uq_workspace_user_properties_live', ['workspaceId', 'userId'], { unique: true, where: '"deleted_at" IS NULL' })
export class WorkspaceUserProperties extends DisplayPropertiesBase {}
