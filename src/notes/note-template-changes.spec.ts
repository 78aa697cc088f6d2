import { plainToInstance } from 'class-transformer';
import { UpdateNoteTemplateDto } from './dto/update-note-template.dto';
import { noteTemplateChanges } from './note-template-changes';
import { NoteTemplate } from './note-template.entity';

describe('noteTemplateChanges', () => {
  const stored = Object.assign(new NoteTemplate(), {
    title: 'Standup',
    context: 'ctx',
    sections: [{ title: 'Yesterday', description: '' }],
    icon: { type: 'emoji', src: 'x' },
    aiActions: true,
    isShared: false,
  });
  const changes = (patch: object) => noteTemplateChanges(stored, plainToInstance(UpdateNoteTemplateDto, patch));

  it('leaves out absent fields and values equal to the stored ones', () => {
    expect(changes({})).toEqual({});
    expect(changes({ title: 'Standup', ai_actions: true, is_shared: false })).toEqual({});
    expect(changes({ sections: [{ title: 'Yesterday' }] })).toEqual({});
    expect(changes({ icon: { src: 'x', type: 'emoji' } })).toEqual({});
  });

  it('normalises null as the contract says', () => {
    expect(changes({ context: null, sections: null, ai_actions: null, is_shared: null })).toEqual({
      context: '',
      sections: [],
      aiActions: false,
    });
  });

  it('keeps what really changes, as plain values', () => {
    expect(changes({ title: 'Retro', sections: [{ title: 'A', description: 'b' }], icon: { type: 'icon', src: 'y' } })).toEqual({
      title: 'Retro',
      sections: [{ title: 'A', description: 'b' }],
      icon: { type: 'icon', src: 'y' },
    });
  });
});
