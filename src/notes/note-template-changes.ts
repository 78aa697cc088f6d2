import { isDeepStrictEqual } from 'node:util';
import { normaliseImage } from '../common/image';
import { UpdateNoteTemplateDto } from './dto/update-note-template.dto';
import { NoteTemplate, NoteTemplateSection } from './note-template.entity';

export type NoteTemplateChanges = Partial<Pick<NoteTemplate, 'title' | 'context' | 'sections' | 'icon' | 'aiActions' | 'isShared'>>;

/**
 * The columns a patch really changes: absent fields and values equal to the stored ones are left
 * out, so an update that changes nothing writes nothing. null is normalised as the contract says.
 */
export function noteTemplateChanges(stored: NoteTemplate, patch: UpdateNoteTemplateDto): NoteTemplateChanges {
  const wanted: NoteTemplateChanges = {};
  if (patch.title !== undefined) wanted.title = patch.title;
  if (patch.context !== undefined) wanted.context = patch.context ?? '';
  if (patch.sections !== undefined) wanted.sections = (patch.sections ?? []).map(normaliseSection);
  if (patch.icon !== undefined) wanted.icon = normaliseImage(patch.icon);
  if (patch.ai_actions !== undefined) wanted.aiActions = patch.ai_actions ?? false;
  if (patch.is_shared !== undefined) wanted.isShared = patch.is_shared ?? false;
  return Object.fromEntries(
    Object.entries(wanted).filter(([column, value]) => !isDeepStrictEqual(stored[column as keyof NoteTemplate], value)),
  ) as NoteTemplateChanges;
}

function normaliseSection(section: { title: string; description?: string }): NoteTemplateSection {
  return { title: section.title, description: section.description ?? '' };
}
