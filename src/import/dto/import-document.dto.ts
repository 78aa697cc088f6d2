import { applyDecorators } from '@nestjs/common';
import { OptionalNonNull } from '../../common/patch-semantics';
import { CardEntry, TagEntry } from './card-entries.dto';
import { ListOf } from './import-rules';
import { NoteTemplateEntry } from './note-template-entry.dto';
import { PageEntry } from './page-entry.dto';
import { TokenEntry } from './token-entry.dto';
import { MemberEntry, ProjectEntry, UserEntry, WorkspaceEntry } from './workspace-entries.dto';

const Entries = (type: () => new () => object) => applyDecorators(OptionalNonNull(), ListOf(type));

/**
 * What `import` reads and `export` writes (see decisions.md, "Data in and out"). Every collection is
 * optional; entries are created or updated by id, and the lists inside an entry replace what is stored.
 */
export class ImportDocument {
  @Entries(() => WorkspaceEntry)
  workspaces?: WorkspaceEntry[];

  @Entries(() => UserEntry)
  users?: UserEntry[];

  @Entries(() => MemberEntry)
  members?: MemberEntry[];

  @Entries(() => TokenEntry)
  tokens?: TokenEntry[];

  @Entries(() => ProjectEntry)
  projects?: ProjectEntry[];

  @Entries(() => NoteTemplateEntry)
  note_templates?: NoteTemplateEntry[];

  @Entries(() => PageEntry)
  pages?: PageEntry[];

  @Entries(() => TagEntry)
  tags?: TagEntry[];

  @Entries(() => CardEntry)
  cards?: CardEntry[];
}

export const COLLECTIONS = [
  'workspaces',
  'users',
  'members',
  'tokens',
  'projects',
  'note_templates',
  'pages',
  'tags',
  'cards',
] as const;
export type Collection = (typeof COLLECTIONS)[number];
