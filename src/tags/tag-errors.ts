import { DomainError } from '../errors/domain-error';

export const TagErrors = {
  notFound: (id: string) => new DomainError('TAG_NOT_FOUND', `Tag ${id} was not found in this workspace`),
  projectNotFound: (id: string) =>
    new DomainError('PROJECT_NOT_FOUND', `project_id ${id} is not a project of this workspace`),
  /** projectId undefined: the scope is the tag's own, not known where the refusal is made. */
  nameTaken: (name: string, projectId?: string | null) =>
    new DomainError('TAG_NAME_TAKEN', `Another ${scope(projectId)} is named ${JSON.stringify(name)} (ignoring case)`),
  projectFixed: (id: string) =>
    new DomainError('TAG_PROJECT_FIXED', `project_id of tag ${id} cannot change; it is the scope of its name`),
};

function scope(projectId: string | null | undefined): string {
  if (projectId === undefined) return 'tag of the same scope';
  return projectId === null ? 'workspace-wide tag' : `tag of project ${projectId}`;
}
