import { DatabaseUrlError } from './connection-failure';

const URL = 'postgres://app:s3cret@db:5432/app';
const failed = (error: unknown, file?: string) => new DatabaseUrlError(error, { url: URL, file });
const pgError = (code: string, message: string) => Object.assign(new Error(message), { code });
const nodeError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('DatabaseUrlError', () => {
  it.each(
    [
      [pgError('28P01', 'password authentication failed for user "app"'), 'authentication failed', true],
      [pgError('28000', 'no pg_hba.conf entry for host "10.0.0.2"'), 'authentication failed', true],
      [pgError('3D000', 'database "app" does not exist'), 'database missing', true],
      [nodeError('ENOTFOUND', 'getaddrinfo ENOTFOUND db'), 'host not found', true],
      [new Error('The server does not support SSL connections'), 'TLS', true],
      [nodeError('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'), 'TLS', true],
      [nodeError('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.1:5432'), 'connection refused', false],
      [new Error('timeout expired'), 'timeout', false],
      [pgError('57P03', 'the database system is starting up'), 'server not ready', false],
      [nodeError('EAI_AGAIN', 'getaddrinfo EAI_AGAIN db'), 'unreachable', false],
      [new Error('Connection terminated unexpectedly'), 'unreachable', false],
      [new Error('something new'), 'unexpected', false],
    ].map(([error, cause, permanent]) => [(error as Error).message, cause, permanent, error]),
  )('calls "%s" %s (permanent: %s)', (_, cause, permanent, error) => {
    expect(failed(error)).toMatchObject({ permanent, fields: { cause, variable: 'DATABASE_URL' } });
  });

  it('says the URL without its password, the cause, what the server said and the fix, in one line', () => {
    expect(failed(pgError('3D000', 'database "app" does not exist')).message).toBe(
      'DATABASE_URL postgres://app:***@db:5432/app: database missing (database "app" does not exist); ' +
        'create that database (createdb), or name an existing one in DATABASE_URL',
    );
  });

  it('names DATABASE_URL_FILE when the URL was read from it', () => {
    const error = failed(nodeError('ENOTFOUND', 'getaddrinfo ENOTFOUND db'), '/run/secrets/db');
    expect(error.fields.variable).toBe('DATABASE_URL_FILE');
    expect(error.message).toBe(
      'DATABASE_URL (from DATABASE_URL_FILE="/run/secrets/db") postgres://app:***@db:5432/app: host not found ' +
        '(getaddrinfo ENOTFOUND db); correct the host name in the URL in DATABASE_URL_FILE',
    );
  });

  it('says what every address of a host said when none had a message of its own', () => {
    const refused = Object.assign(new AggregateError([nodeError('ECONNREFUSED', 'connect ECONNREFUSED ::1:5432')]), {
      code: 'ECONNREFUSED',
    });
    expect(failed(refused).message).toContain('connection refused (connect ECONNREFUSED ::1:5432)');
  });
});
