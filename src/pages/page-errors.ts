import { CommonErrors } from '../errors/common-errors';
import { DomainError } from '../errors/domain-error';

export const PageErrors = {
  notFound: (id: string) => new DomainError('PAGE_NOT_FOUND', `Page ${id} was not found`),
  parentNotFound: (id: string) =>
    new DomainError('PARENT_PAGE_NOT_FOUND', `parent_page_id ${id} is not a page of this workspace`),
  projectNotFound: CommonErrors.projectNotFound,
  cycle: (id: string, parentId: string) =>
    new DomainError('PAGE_PARENT_CYCLE', `parent_page_id ${parentId} is page ${id} or one of its subpages`),
  parentArchived: (parentId: string) =>
    new DomainError('PARENT_PAGE_ARCHIVED', `parent_page_id ${parentId} is an archived page`),
  archivedNotMovable: (id: string, field: string) =>
    new DomainError('PAGE_ARCHIVED', `Page ${id} is archived: ${field} can change only together with archived: false`),
  parentInOtherProject: (parentId: string, projectId: string) =>
    new DomainError('PARENT_PROJECT_MISMATCH', `parent_page_id ${parentId} is not a page of project_id ${projectId}`),
  archivedNotCopyable: (id: string) => new DomainError('PAGE_ARCHIVED', `Page ${id} is archived and cannot be copied`),
  copyTooLarge: (id: string, max: number) =>
    new DomainError(
      'PAGE_COPY_TOO_LARGE',
      `Page ${id} has more than ${max} pages with its subpages: recursive copy refused`,
    ),
};
