import { ImportDocument } from './dto/import-document.dto';
import { ExistingState, teamKey } from './existing-state';
import { ImportError } from './import-error';

/**
 * What entries may refer to: the database's workspaces, users, members, projects and tags, as the
 * document leaves them. Each check throws an ImportError naming the entry and the reference.
 */
export class References {
  private readonly workspaces: Set<string>;
  private readonly users: Set<string>;
  private readonly members: Set<string>;
  private readonly projects: Set<string>;
  private readonly tags: Map<string, string | null>;

  constructor(doc: ImportDocument, existing: ExistingState) {
    this.workspaces = new Set([...existing.workspaces, ...(doc.workspaces ?? []).map((w) => w.id)]);
    this.users = new Set([...existing.users, ...(doc.users ?? []).map((u) => u.id)]);
    this.members = new Set([...existing.members, ...(doc.members ?? []).map((m) => teamKey(m.team_id, m.user_id))]);
    this.projects = new Set([...existing.projects, ...(doc.projects ?? []).map((p) => teamKey(p.team_id, p.id))]);
    this.tags = new Map([
      ...existing.tags,
      ...(doc.tags ?? []).map((t) => [teamKey(t.team_id, t.id), t.project_id ?? null] as const),
    ]);
  }

  workspace(entry: string, teamId: string): void {
    if (!this.workspaces.has(teamId))
      throw ImportError.at(entry, `team_id "${teamId}" is not a workspace (list it under workspaces)`);
  }

  user(entry: string, userId: string): void {
    if (!this.users.has(userId)) throw ImportError.at(entry, `user_id "${userId}" is not a user (list it under users)`);
  }

  member(entry: string, teamId: string, userId: string, field: string): void {
    if (!this.members.has(teamKey(teamId, userId))) {
      throw ImportError.at(
        entry,
        `${field} "${userId}" is not a member of workspace ${teamId} (list it under members)`,
      );
    }
  }

  project(entry: string, teamId: string, projectId: string): void {
    if (!this.projects.has(teamKey(teamId, projectId)))
      throw ImportError.at(entry, `project_id "${projectId}" is not a project of workspace ${teamId}`);
  }

  /** A card may carry tags of the workspace that are workspace-wide or of the card's project. */
  cardTag(entry: string, teamId: string, cardProjectId: string, tagId: string): void {
    const key = teamKey(teamId, tagId);
    if (!this.tags.has(key))
      throw ImportError.at(entry, `tags lists "${tagId}", which is not a tag of workspace ${teamId}`);
    const tagProject = this.tags.get(key);
    if (tagProject !== null && tagProject !== cardProjectId) {
      throw ImportError.at(
        entry,
        `tag "${tagId}" belongs to project ${tagProject}, not to the card's project ${cardProjectId}`,
      );
    }
  }
}
