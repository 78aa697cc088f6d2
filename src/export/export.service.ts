import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { TokenActor } from '../common/actor';
import { ImportDocument } from '../import/dto/import-document.dto';
import { TokenEntry } from '../import/dto/token-entry.dto';
import { ImportError } from '../import/import-error';
import { exportPages } from './export-pages';
import { named } from '../database/named-parameters';

/** The rows of one collection of the document, as a statement selects them. */
type Entries<K extends keyof ImportDocument> = NonNullable<ImportDocument[K]>;

interface TokenRow extends Omit<TokenEntry, 'expires_at' | 'revoked'> {
  expires_at: Date | null;
  revoked: boolean;
  actor: TokenActor;
}

@Injectable()
export class ExportService {
  constructor(private readonly db: DataSource) {}

  /**
   * One workspace as an import document, read from one snapshot. Token secrets are not stored, so
   * they are not exported: such a document re-imports into this database, not into an empty one.
   */
  async exportWorkspace(teamId: string): Promise<ImportDocument> {
    return this.db.transaction('REPEATABLE READ', async (tx) => {
      const workspaces = await tx.query<Entries<'workspaces'>>(
        ...named(`SELECT id, name FROM workspaces WHERE id = :teamId`, { teamId }),
      );
      if (workspaces.length === 0) throw new ImportError(`Workspace ${teamId} does not exist`);
      return {
        workspaces,
        users: await tx.query<Entries<'users'>>(
          ...named(
            `SELECT u.id, u.name, u.email FROM users u JOIN members m ON m.user_id = u.id
            WHERE m.team_id = :teamId ORDER BY u.id`,
            { teamId },
          ),
        ),
        members: await tx.query<Entries<'members'>>(
          ...named(`SELECT team_id, user_id, role FROM members WHERE team_id = :teamId ORDER BY user_id`, { teamId }),
        ),
        tokens: await exportTokens(tx, teamId),
        projects: await tx.query<Entries<'projects'>>(
          ...named(`SELECT team_id, id, title FROM projects WHERE team_id = :teamId ORDER BY id`, { teamId }),
        ),
        note_templates: await tx.query<Entries<'note_templates'>>(
          ...named(
            `SELECT t.team_id, t.id, t.owner_id, t.title, t.context, t.sections, t.ai_actions, t.is_shared, t.icon,
                  ARRAY(SELECT f.user_id FROM note_template_favourites f
                         WHERE f.team_id = :teamId AND f.template_id = t.id ORDER BY f.user_id) AS favourited_by
             FROM note_templates t WHERE t.team_id = :teamId ORDER BY t.id`,
            { teamId },
          ),
        ),
        pages: await exportPages(tx, teamId),
        tags: await tx.query<Entries<'tags'>>(
          ...named(
            `SELECT team_id, id::text, project_id, name, slug, color FROM tags WHERE team_id = :teamId ORDER BY id`,
            { teamId },
          ),
        ),
        cards: await tx.query<Entries<'cards'>>(
          ...named(
            `SELECT c.team_id, c.id::text, c.project_id, c.title, c.owner_id,
                  ARRAY(SELECT m.user_id FROM card_members m WHERE m.team_id = :teamId AND m.card_id = c.id
                         ORDER BY m.assigned_at, m.user_id) AS members,
                  ARRAY(SELECT t.tag_id::text FROM card_tags t WHERE t.team_id = :teamId AND t.card_id = c.id
                         ORDER BY t.attached_seq) AS tags
             FROM cards c WHERE c.team_id = :teamId ORDER BY c.id`,
            { teamId },
          ),
        ),
      };
    });
  }
}

async function exportTokens(tx: EntityManager, teamId: string): Promise<TokenEntry[]> {
  const rows = await tx.query<TokenRow[]>(
    ...named(
      `SELECT id, team_id, user_id, name, expires_at, revoked_at IS NOT NULL AS revoked, actor
       FROM tokens WHERE team_id = :teamId ORDER BY id`,
      { teamId },
    ),
  );
  return rows.map(({ expires_at, revoked, ...token }) => ({
    ...token,
    expires_at: expires_at?.getTime() ?? null,
    ...(revoked ? { revoked: true } : {}),
  }));
}
