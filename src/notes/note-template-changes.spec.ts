import { plainToInstance } from 'class-transformer';
import { UpdateNoteTemplateDto } from './dto/update-note-template.dto';
import { noteTemplateChanges } from './note-template-changes';

// Whether a value equals the stored one is WRITE_TEMPLATE's to decide (the e2e specs check no-op patches).
describe('noteTemplateChanges', () => {
  const changes = (patch: object) => noteTemplateChanges(plainToInstance(UpdateNoteTemplateDto, patch));

  it('leaves out absent fields', () => {
    expect(changes({})).toEqual({});
    expect(changes({ title: 'Standup' })).toEqual({ title: 'Standup' });
  });

  it('normalises null as the contract says', () => {
    expect(changes({ context: null, sections: null, ai_actions: null, is_shared: null })).toEqual({
      context: '',
      sections: [],
      aiActions: false,
      isShared: false,
    });
  });

  it('keeps what it sets as plain values', () => {
    expect(
      changes({
        title: 'Retro',
        sections: [{ title: 'A', description: 'b' }, { title: 'C' }],
        icon: { type: 'icon', src: 'y' },
      }),
    ).toEqual({
      title: 'Retro',
      sections: [
        { title: 'A', description: 'b' },
        { title: 'C', description: '' },
      ],
      icon: { type: 'icon', src: 'y' },
    });
  });
});
