import { NoteTemplateDto } from './dto/note-template.response';
import { NoteTemplate } from './note-template.entity';

/** The contract's NoteTemplate as one caller sees it. */
export function toNoteTemplateView(template: NoteTemplate, isFavourited: boolean): NoteTemplateDto {
  return {
    id: template.id,
    title: template.title,
    context: template.context,
    sections: template.sections.map(({ title, description }) => ({ title, description })),
    ai_actions: template.aiActions,
    ...(template.icon ? { icon: template.icon } : {}),
    user: template.createdBy,
    user_updated: template.updatedBy,
    time_created: template.timeCreated.getTime(),
    time_updated: template.timeUpdated.getTime(),
    is_shared: template.isShared,
    is_favourited: isFavourited,
  };
}
