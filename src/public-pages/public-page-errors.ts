import { DomainError } from '../errors/domain-error';

export const PUBLIC_PAGE_METHODS = 'GET, HEAD';

export const PublicPageErrors = {
  /** One message for every reason, so that a guesser learns nothing about what exists. */
  notFound: () => new DomainError('PUBLIC_PAGE_NOT_FOUND', 'No page is shared at this address'),
  methodNotAllowed: (method: string) =>
    new DomainError('METHOD_NOT_ALLOWED', `A public page answers GET and HEAD, not ${method}`, {
      Allow: PUBLIC_PAGE_METHODS,
    }),
};
