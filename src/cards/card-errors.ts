import { DomainError } from '../errors/domain-error';

export const CardErrors = {
  notFound: (id: string) => new DomainError('CARD_NOT_FOUND', `Card ${id} was not found`),
  tagsNotFound: (ids: string[]) =>
    new DomainError(
      'TAG_NOT_FOUND',
      `Tag${ids.length > 1 ? 's' : ''} ${ids.join(', ')} ${ids.length > 1 ? 'were' : 'was'} ` +
        "not found in this workspace or the card's project",
    ),
  tagNotFound: (id: string) => new DomainError('TAG_NOT_FOUND', `Tag ${id} was not found in this workspace`),
  noTagIds: () => new DomainError('TAG_IDS_MISSING', 'Send id, ids or both, naming at least one tag'),
  tooManyTagIds: (count: number, limit: number) =>
    new DomainError(
      'TAG_IDS_TOO_MANY',
      `ids names ${count} distinct tags; at most ${limit} may be attached in one request`,
    ),
};
