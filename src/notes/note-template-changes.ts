import { Caller } from '../auth/caller';
import { normaliseImage } from '../common/image';
import { CreateNoteTemplateDto } from './dto/create-note-template.dto';
import { UpdateNoteTemplateDto } from './dto/update-note-template.dto';
import { CreateTemplateParams } from './note-template-lifecycle-queries';
import { NoteTemplate, NoteTemplateSection } from './note-template.entity';
import { WriteTemplateParams } from './note-template-queries';

export type NoteTemplateChanges = Partial<
  Pick<NoteTemplate, 'title' | 'context' | 'sections' | 'icon' | 'aiActions' | 'isShared'>
>;

/** The fields a patch sets, as plain values, null normalised as the contract says; absent fields are left out. */
export function noteTemplateChanges(patch: UpdateNoteTemplateDto): NoteTemplateChanges {
  const wanted: NoteTemplateChanges = {};
  if (patch.title !== undefined) wanted.title = patch.title;
  if (patch.context !== undefined) wanted.context = patch.context ?? '';
  if (patch.sections !== undefined) wanted.sections = (patch.sections ?? []).map(normaliseSection);
  if (patch.icon !== undefined) wanted.icon = normaliseImage(patch.icon);
  if (patch.ai_actions !== undefined) wanted.aiActions = patch.ai_actions ?? false;
  if (patch.is_shared !== undefined) wanted.isShared = patch.is_shared ?? false;
  return wanted;
}

/** WRITE_TEMPLATE's parameters for a patch; the statement leaves out what equals the stored values. */
export function writeTemplateParams(
  caller: Caller,
  teamId: string,
  templateId: string,
  patch: UpdateNoteTemplateDto,
): WriteTemplateParams {
  const { title, context, sections, icon, aiActions, isShared } = noteTemplateChanges(patch);
  // jsonb goes as JSON text: pg would send an array as a PostgreSQL array.
  const json = (value: object | null | undefined) => (value ? JSON.stringify(value) : null);
  return {
    teamId,
    templateId,
    callerId: caller.userId,
    actor: JSON.stringify(caller.actor),
    title: title ?? null,
    context: context ?? null,
    sections: json(sections),
    icon: json(icon),
    aiActions: aiActions ?? null,
    isShared: isShared ?? null,
  };
}

function normaliseSection(section: { title: string; description?: string }): NoteTemplateSection {
  return { title: section.title, description: section.description ?? '' };
}

/** CREATE_TEMPLATE's parameters: the update's normalisation, and the contract's defaults for what is absent. */
export function createTemplateParams(
  caller: Caller,
  teamId: string,
  body: CreateNoteTemplateDto,
): CreateTemplateParams {
  const written = writeTemplateParams(caller, teamId, '', body);
  return {
    teamId,
    callerId: caller.userId,
    actor: written.actor,
    title: body.title,
    context: written.context ?? '',
    sections: written.sections ?? '[]',
    icon: written.icon,
    aiActions: written.aiActions ?? false,
    isShared: written.isShared ?? false,
  };
}
