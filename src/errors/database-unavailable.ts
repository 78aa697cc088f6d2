const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
]);
// admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections, query_canceled (statement timeout)
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '57014']);
const UNREACHABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'not queryable',
  'Connection is not established',
];
// TypeORM releases a query runner as soon as its connection reports an error (the server ended it),
// so a transaction caught between two statements fails on the next one with these, not with the cause.
const RELEASED_RUNNER_ERRORS = new Set(['QueryRunnerAlreadyReleasedError', 'QueryRunnerProviderAlreadyReleasedError']);

/** Whether an error means "the database cannot answer now" (503) rather than a bug (500). */
export function isDatabaseUnavailable(error: unknown): boolean {
  const candidates = [error, (error as { driverError?: unknown })?.driverError].filter(Boolean) as Array<{
    code?: unknown;
    message?: unknown;
    name?: unknown;
  }>;
  return candidates.some((e) => {
    const code = typeof e.code === 'string' ? e.code : '';
    const message = typeof e.message === 'string' ? e.message : '';
    return (
      UNREACHABLE_CODES.has(code) ||
      UNAVAILABLE_SQLSTATES.has(code) ||
      code.startsWith('08') ||
      e.name === 'CannotExecuteNotConnectedError' ||
      RELEASED_RUNNER_ERRORS.has(String(e.name)) ||
      UNREACHABLE_MESSAGES.some((m) => message.includes(m))
    );
  });
}
