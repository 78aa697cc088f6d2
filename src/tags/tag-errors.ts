import { CommonErrors } from '../errors/common-errors';
import { DomainError } from '../errors/domain-error';

export const TagErrors = {
  notFound: (id: string) => new DomainError('TAG_NOT_FOUND', `Tag ${id} was not found in this workspace`),
  projectNotFound: CommonErrors.projectNotFound,
  /** The message names the scope, not the name: an error never repeats a body value. */
  nameTaken: (projectId?: string | null) =>
    new DomainError('TAG_NAME_TAKEN', `name is taken: another ${scope(projectId)} has it (ignoring case)`),
  projectFixed: (id: string) =>
    new DomainError('TAG_PROJECT_FIXED', `project_id of tag ${id} cannot change; it is the scope of its name`),
};

/** projectId undefined: the tag's own scope, not known where the refusal is made. */
function scope(projectId: string | null | undefined): string {
  if (projectId === undefined) return 'tag of the same scope';
  return projectId === null ? 'workspace-wide tag' : `tag of project ${projectId}`;
}
