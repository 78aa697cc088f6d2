import { NotFoundException, ServiceUnavailableException } from '@nestjs/common';
import { toDomainError } from './to-domain-error';

describe('toDomainError', () => {
  const request = { method: 'GET', path: '/x' };
  const code = (e: unknown) => toDomainError(e, request).error.code;

  it('maps the body parser, Nest and database failures onto the catalogue', () => {
    expect(code(Object.assign(new Error('incorrect header check'), { status: 400 }))).toBe('MALFORMED_JSON');
    expect(
      code(
        Object.assign(new Error('unsupported content encoding "compress"'), {
          type: 'encoding.unsupported',
          status: 415,
        }),
      ),
    ).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(code(Object.assign(new Error('too large'), { type: 'entity.too.large' }))).toBe('PAYLOAD_TOO_LARGE');
    expect(code(new NotFoundException())).toBe('ROUTE_NOT_FOUND');
    expect(code(new ServiceUnavailableException({ error: { database: { message: 'down' } } }))).toBe('NOT_READY');
    expect(code(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(
      'DATABASE_UNAVAILABLE',
    );
    expect(code({ name: 'QueryFailedError', driverError: { code: '57P01' } })).toBe('DATABASE_UNAVAILABLE');
    // TypeORM's answer for the next statement of a transaction whose connection the server ended.
    expect(code(Object.assign(new Error('released'), { name: 'QueryRunnerAlreadyReleasedError' }))).toBe(
      'DATABASE_UNAVAILABLE',
    );
  });

  it('treats anything else as unexpected, without leaking its message', () => {
    const { error, unexpected } = toDomainError(new Error('secret SQL: SELECT * FROM tokens'), request);
    expect(unexpected).toBe(true);
    expect(error.code).toBe('INTERNAL_ERROR');
    expect(error.message).not.toMatch(/SQL|tokens/);
  });
});
