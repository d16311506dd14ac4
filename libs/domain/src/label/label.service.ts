import { MeridianError, Page, PageRequest, validationError } from '#common';
import { randomInt } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { assertExternalIdFree } from '../kernel/external-id';
import { isUniqueViolation } from '../kernel/db-errors';
import { assertProjectWritable } from '../kernel/project-writable';
import { Label } from './label.entity';
import { LabelRepository } from './label.repository';
import { LabelJson, labelView } from './label.view';

/** Writable label fields, Plane's names (`plane/api/serializers/issue.py` LabelSerializer). */
export interface LabelInput {
  name?: string;
  description?: string;
  color?: string;
  parent?: string | null;
  sort_order?: number;
  external_source?: string | null;
  external_id?: string | null;
}

/** A project's labels (Plane `plane/api/views/issue.py` LabelAPIEndpoint). */
@Injectable()
export class LabelService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly labels: LabelRepository,
  ) {}

  /** Labels of the project, newest first (Plane: `-created_at`); paginated. Empty while the project is archived (Plane). */
  async list(projectId: string, page: PageRequest): Promise<Page<LabelJson>> {
    return (await this.labels.listPageInProject(projectId, page)).map(labelView);
  }

  /**
   * Labels of every live, non-archived project of the workspace the user is an active member of
   * (Plane's `workspaces/{slug}/labels/`), newest first; paginated.
   */
  async listForWorkspace(workspaceId: string, userId: string, page: PageRequest): Promise<Page<LabelJson>> {
    return (await this.labels.listPageInMemberProjects(workspaceId, userId, page)).map(labelView);
  }

  /** One label of the project; 404 `NOT_FOUND` otherwise. */
  async retrieve(projectId: string, labelId: string): Promise<LabelJson> {
    const archived = await this.labels.isProjectArchived(projectId);
    if (archived) throw new MeridianError('NOT_FOUND');
    return labelView(await this.load(this.labels.manager, projectId, labelId));
  }

  /**
   * Creates a label: `sort_order` defaults to the project's highest + 10000 (65535 for the first);
   * `parent` must be a label of the same project (422). A taken name is 409 `LABEL_NAME_TAKEN`, a
   * taken external id 409 `EXTERNAL_ID_TAKEN` (both with the holder's `id`).
   */
  async create(
    workspaceId: string,
    projectId: string,
    userId: string,
    input: LabelInput & { name: string },
  ): Promise<LabelJson> {
    return this.guardNames(async () => {
      const label = await this.dataSource.transaction(async (em) => {
        await assertProjectWritable(em, projectId);
        await this.assertNameFree(em, projectId, input.name);
        await assertExternalIdFree(em, Label, projectId, input.external_source, input.external_id);
        if (input.parent)
          await this.load(em, projectId, input.parent).catch(() => {
            throw validationError({ parent: ['This label does not belong to the project.'] });
          });
        let sortOrder = input.sort_order;
        if (sortOrder === undefined) {
          const max = await this.labels.maxSortOrder(em, projectId);
          sortOrder = max === null ? 65535 : max + 10000;
        }
        return this.labels.insert(
          em,
          em.create(Label, {
            workspaceId,
            projectId,
            name: input.name.trim(),
            description: input.description ?? '',
            color: input.color ?? '',
            parentId: input.parent ?? null,
            sortOrder,
            externalSource: input.external_source ?? null,
            externalId: input.external_id ?? null,
            createdById: userId,
            updatedById: userId,
          }),
        );
      });
      return labelView(label);
    });
  }

  /**
   * `POST bulk-create-labels/` (Plane 0.25.3 `BulkCreateIssueLabelsEndpoint`): one label per item,
   * `name` "Migrated" and `description` "Migrated Issue" when missing, a random color, in one
   * transaction; a name the project already has (or an earlier item had) is skipped, as Plane's
   * `ignore_conflicts`. Answers the labels created, in the items' order.
   */
  async bulkCreate(
    workspaceId: string,
    projectId: string,
    userId: string,
    items: Array<{ name?: string; description?: string }>,
  ): Promise<LabelJson[]> {
    return this.guardNames(() =>
      this.dataSource.transaction(async (em) => {
        await assertProjectWritable(em, projectId);
        const max = await this.labels.maxSortOrder(em, projectId);
        let sortOrder = max === null ? 55535 : max;
        const created: Label[] = [];
        const seen = new Set<string>();
        for (const item of items) {
          const name = (item.name ?? 'Migrated').trim() || 'Migrated';
          if (seen.has(name)) continue;
          seen.add(name);
          const taken = await this.assertNameFree(em, projectId, name).then(
            () => false,
            () => true,
          );
          if (taken) continue;
          sortOrder += 10000;
          created.push(
            await this.labels.insert(
              em,
              em.create(Label, {
                workspaceId,
                projectId,
                name,
                description: item.description ?? 'Migrated Issue',
                color: `#${randomInt(0, 0x1000000).toString(16).toUpperCase().padStart(6, '0')}`,
                parentId: null,
                sortOrder,
                createdById: userId,
                updatedById: userId,
              }),
            ),
          );
        }
        return created.map(labelView);
      }),
    );
  }

  /** Partial update; a parent that is the label itself or one of its descendants is 422. */
  async update(projectId: string, labelId: string, userId: string, input: LabelInput): Promise<LabelJson> {
    return this.guardNames(async () => {
      await this.dataSource.transaction(async (em) => {
        await assertProjectWritable(em, projectId);
        const label = await this.load(em, projectId, labelId, true);
        if (input.name !== undefined && input.name.trim() !== label.name)
          await this.assertNameFree(em, projectId, input.name, labelId);
        if (input.external_id !== undefined || input.external_source !== undefined) {
          await assertExternalIdFree(
            em,
            Label,
            projectId,
            input.external_source !== undefined ? input.external_source : label.externalSource,
            input.external_id !== undefined ? input.external_id : label.externalId,
            labelId,
          );
        }
        if (input.parent) await this.assertParent(em, projectId, labelId, input.parent);
        const patch: Partial<Label> = { updatedById: userId };
        if (input.name !== undefined) patch.name = input.name.trim();
        if (input.description !== undefined) patch.description = input.description;
        if (input.color !== undefined) patch.color = input.color;
        if (input.parent !== undefined) patch.parentId = input.parent;
        if (input.sort_order !== undefined) patch.sortOrder = input.sort_order;
        if (input.external_id !== undefined) patch.externalId = input.external_id;
        if (input.external_source !== undefined) patch.externalSource = input.external_source;
        await this.labels.update(em, labelId, patch);
      });
      return this.retrieve(projectId, labelId);
    });
  }

  /** Soft-deletes a label: its children become top-level labels and work items lose it. */
  async remove(projectId: string, labelId: string, userId: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await assertProjectWritable(em, projectId);
      await this.load(em, projectId, labelId, true);
      await this.labels.detachChildren(em, labelId, userId);
      await this.labels.removeFromWorkItems(em, labelId);
      await this.labels.update(em, labelId, { updatedById: userId, deletedAt: new Date() });
    });
  }

  private async assertParent(em: EntityManager, projectId: string, labelId: string, parentId: string): Promise<void> {
    let current: string | null = parentId;
    for (let depth = 0; current && depth < 100; depth++) {
      if (current === labelId) throw validationError({ parent: ['A label cannot be its own ancestor.'] });
      const parent: Label | null = await this.labels.findById(em, projectId, current);
      if (!parent) throw validationError({ parent: ['This label does not belong to the project.'] });
      current = parent.parentId;
    }
  }

  private async load(em: EntityManager, projectId: string, labelId: string, lock = false): Promise<Label> {
    const label = await this.labels.findInProject(em, projectId, labelId, lock);
    if (!label) throw new MeridianError('NOT_FOUND');
    return label;
  }

  private async assertNameFree(em: EntityManager, projectId: string, name: string, exceptId?: string): Promise<void> {
    const found = await this.labels.idByName(em, projectId, name);
    if (found && found !== exceptId) throw new MeridianError('LABEL_NAME_TAKEN', undefined, { id: found });
  }

  private async guardNames<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (isUniqueViolation(err, 'uq_labels_name_live')) throw new MeridianError('LABEL_NAME_TAKEN');
      if (isUniqueViolation(err, 'uq_labels_external_live')) throw new MeridianError('EXTERNAL_ID_TAKEN');
      throw err;
    }
  }

  // ---- reads for the rooms above (the published boards)

  /** The project's live labels by `sort_order` (entities, unpaginated). */
  labelsOfProject(projectId: string): Promise<Label[]> {
    return this.labels.inProject(projectId);
  }

  /**
   * Which of `ids` are live labels of the project, in the order given, each once (labels of other
   * projects are dropped, as a page's `labels` in Plane); in the caller's transaction when `em` is
   * given. No errors.
   */
  async liveLabelIdsInProject(
    projectId: string,
    ids: string[],
    em: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
    const unique = [...new Set(ids)];
    const found = new Set(await this.labels.liveIdsInProject(em, projectId, unique));
    return unique.filter((id) => found.has(id));
  }

  /** The live labels among `ids` (entities, in no order): a work item's `expand=labels`. */
  liveLabels(ids: string[]): Promise<Label[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.labels.byIds(this.dataSource.manager, [...new Set(ids)], false);
  }

  /**
   * The labels among `ids`, deleted ones too (entities, in no order): the names a work item's
   * history gives them, in the caller's transaction when `em` is given.
   */
  labelsWithDeleted(ids: string[], em: EntityManager = this.dataSource.manager): Promise<Label[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.labels.byIds(em, [...new Set(ids)], true);
  }

  /** Which of `ids` are live labels (deleted ones are left out of what a work item shows). */
  liveLabelIds(ids: string[]): Promise<Set<string>> {
    return this.labels.liveIds([...new Set(ids)]);
  }

  // ---- the import's dedupe reads (`meridian import plane`)

  /**
   * `external_id` → id of the project's live labels that came from `source` (their
   * `external_source`); those without an `external_id` are left out. `em`: the caller's transaction.
   */
  externalIds(projectId: string, source: string, em?: EntityManager): Promise<Map<string, string>> {
    return this.labels.externalIds(projectId, source, em);
  }

  /**
   * The project's live labels by name: `{id, externalId}` (the project's own, which an import
   * adopts when the source has one of the same name). `em`: the caller's transaction.
   */
  namesOf(projectId: string, em?: EntityManager): Promise<Map<string, { id: string; externalId: string | null }>> {
    return this.labels.namesOf(projectId, em);
  }
}
