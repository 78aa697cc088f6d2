import { Token } from '../auth/token.entity';
import { NoteTemplateFavourite } from '../notes/note-template-favourite.entity';
import { NoteTemplate } from '../notes/note-template.entity';

/** Every TypeORM entity; each mirrors a table created in migrations/. */
export const ENTITIES = [Token, NoteTemplate, NoteTemplateFavourite];
