import { DomainError } from '../errors/domain-error';

export const NoteErrors = {
  notFound: (id: string) => new DomainError('NOTE_TEMPLATE_NOT_FOUND', `Note template ${id} was not found`),
};
