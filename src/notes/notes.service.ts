import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Caller } from '../auth/caller';
import { CommonErrors } from '../errors/common-errors';
import { UpdateNoteTemplateDto } from './dto/update-note-template.dto';
import { NoteTemplateDto } from './dto/note-template.response';
import { NoteErrors } from './note-errors';
import { noteTemplateChanges } from './note-template-changes';
import { NoteTemplate } from './note-template.entity';
import { toNoteTemplateView } from './note-template.view';

@Injectable()
export class NotesService {
  constructor(private readonly db: DataSource) {}

  /** Owners see their templates; every member sees shared and built-in ones. */
  async get(caller: Caller, teamId: string, templateId: string): Promise<NoteTemplateDto> {
    const { template, isFavourited } = await this.find(this.db.manager, caller, teamId, templateId, false);
    const readable = template.ownerId === caller.userId || template.ownerId === null || template.isShared;
    if (!readable) throw CommonErrors.accessDenied();
    return toNoteTemplateView(template, isFavourited);
  }

  /**
   * Only the owner updates. The row is locked for the transaction and only the fields that really
   * change are written, so concurrent patches of different fields never undo each other.
   */
  async update(caller: Caller, teamId: string, templateId: string, patch: UpdateNoteTemplateDto): Promise<NoteTemplateDto> {
    return this.db.transaction(async (tx) => {
      const { template, isFavourited } = await this.find(tx, caller, teamId, templateId, true);
      if (template.ownerId !== caller.userId) throw CommonErrors.accessDenied();
      const changes = noteTemplateChanges(template, patch);
      if (Object.keys(changes).length > 0) {
        // The database's clock, as for every other resource, so time_updated never precedes time_created.
        const { raw } = await tx
          .createQueryBuilder()
          .update(NoteTemplate)
          .set({ ...changes, updatedBy: caller.actor, timeUpdated: () => 'now()' })
          .where('team_id = :teamId AND id = :templateId', { teamId, templateId })
          .returning('time_updated')
          .execute();
        Object.assign(template, changes, { updatedBy: caller.actor, timeUpdated: new Date(raw[0].time_updated) });
      }
      return toNoteTemplateView(template, isFavourited);
    });
  }

  private async find(tx: EntityManager, caller: Caller, teamId: string, templateId: string, forUpdate: boolean) {
    const query = tx
      .createQueryBuilder(NoteTemplate, 't')
      .addSelect(
        (sub) =>
          sub
            .select('count(*) > 0')
            .from('note_template_favourites', 'f')
            .where('f.team_id = t.team_id AND f.template_id = t.id AND f.user_id = :userId', { userId: caller.userId }),
        'is_favourited',
      )
      .where('t.team_id = :teamId AND t.id = :templateId', { teamId, templateId });
    // NO KEY UPDATE: enough against concurrent updates, and favourites can still reference the row.
    if (forUpdate) query.setLock('for_no_key_update', undefined, ['t']);
    const { entities, raw } = await query.getRawAndEntities<{ is_favourited: boolean }>();
    if (entities.length === 0) throw NoteErrors.notFound(templateId);
    return { template: entities[0], isFavourited: raw[0].is_favourited };
  }
}
