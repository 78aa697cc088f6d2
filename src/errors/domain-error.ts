import { CATALOGUE, ErrorCode } from './catalogue';

/** A failure the service expects and names. Services throw these; the one filter turns them into responses. */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra response headers, such as Retry-After or WWW-Authenticate. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }

  get status(): number {
    return CATALOGUE[this.code].status;
  }

  get sec(): string {
    return CATALOGUE[this.code].sec;
  }
}
