import { withoutPassword } from '../config/redact';

/** Why a connection to DATABASE_URL failed, in the words the log's `cause` field uses. */
export type ConnectionCause =
  | 'authentication failed'
  | 'database missing'
  | 'host not found'
  | 'connection refused'
  | 'timeout'
  | 'TLS'
  | 'server not ready'
  | 'unreachable'
  | 'unexpected';

interface Rule {
  cause: ConnectionCause;
  /** Trying again cannot help until the configuration or the server's setup changes. */
  permanent: boolean;
  matches(error: { code?: unknown; message: string }): boolean;
  /** What to change; `url` names where the URL is set. */
  fix(url: string): string;
}

const code =
  (...codes: string[]) =>
  (error: { code?: unknown }) =>
    codes.includes(String(error.code));

/** First match wins. SQLSTATEs are PostgreSQL's; the other codes are Node's (socket, DNS, TLS) and pg's messages. */
const RULES: Rule[] = [
  {
    cause: 'authentication failed',
    permanent: true,
    // 28P01: wrong password or no such role; 28000: pg_hba.conf admits no such connection.
    matches: code('28P01', '28000'),
    fix: (url) => `correct the user and password in ${url}, or let pg_hba.conf admit this user from this host`,
  },
  {
    cause: 'database missing',
    permanent: true,
    matches: code('3D000'),
    fix: (url) => `create that database (createdb), or name an existing one in ${url}`,
  },
  {
    cause: 'host not found',
    permanent: true,
    matches: code('ENOTFOUND'),
    fix: (url) => `correct the host name in ${url}`,
  },
  {
    cause: 'TLS',
    permanent: true,
    matches: (error) =>
      /SSL|TLS|certificate/i.test(error.message) || /CERT|^ERR_TLS_|^ERR_SSL_|SELF_SIGNED/.test(String(error.code)),
    fix: (url) =>
      `match the sslmode in ${url} to the server (none for a server without TLS); ` +
      "for a private CA's certificate, set NODE_EXTRA_CA_CERTS",
  },
  {
    cause: 'connection refused',
    permanent: false,
    matches: code('ECONNREFUSED'),
    fix: (url) => `start PostgreSQL there, or correct the host and port in ${url}`,
  },
  {
    cause: 'timeout',
    permanent: false,
    matches: (error) => code('ETIMEDOUT')(error) || /timeout|timed out/i.test(error.message),
    fix: (url) =>
      `check that the host and port in ${url} are a PostgreSQL this machine reaches, or raise DB_CONNECT_TIMEOUT_MS`,
  },
  {
    cause: 'server not ready',
    permanent: false,
    // 57P03: starting up or shutting down; 53300: too many connections.
    matches: code('57P03', '53300'),
    fix: () => 'wait for the server, or give it more max_connections',
  },
  {
    cause: 'unreachable',
    permanent: false,
    matches: (error) =>
      code('EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'EAI_AGAIN')(error) ||
      /terminated unexpectedly/.test(error.message),
    fix: () => 'check the network between this machine and that host',
  },
];

const UNEXPECTED: Rule = {
  cause: 'unexpected',
  permanent: false,
  matches: () => true,
  fix: (url) => `check ${url} and the server`,
};

/** Where the URL came from, as messages name it: DATABASE_URL, or DATABASE_URL read from DATABASE_URL_FILE. */
export interface UrlSource {
  url: string;
  file?: string;
}

/**
 * A failed connection to DATABASE_URL, as one sentence naming the variable, the URL (without its password),
 * what the server or the network said, and what to change.
 */
export class DatabaseUrlError extends Error {
  readonly permanent: boolean;
  /**
   * What a log line about it carries besides its message: DATABASE_URL, or DATABASE_URL_FILE when the URL
   * was read from a file; the cause; the URL without its password.
   */
  readonly fields: { variable: string; cause: ConnectionCause; url: string };
  private readonly failure: string;
  private readonly fix: string;

  constructor(error: unknown, { url, file }: UrlSource) {
    const failure = { code: (error as { code?: unknown })?.code, message: messageOf(error) };
    const rule = RULES.find((r) => r.matches(failure)) ?? UNEXPECTED;
    const shown = withoutPassword(url);
    const where = file ? `DATABASE_URL (from DATABASE_URL_FILE=${JSON.stringify(file)})` : 'DATABASE_URL';
    const said = `${where} ${shown}: ${rule.cause} (${failure.message})`;
    const fix = rule.fix(file ? 'the URL in DATABASE_URL_FILE' : 'DATABASE_URL');
    super(`${said}; ${fix}`);
    this.name = 'DatabaseUrlError';
    this.permanent = rule.permanent;
    this.fields = { variable: file ? 'DATABASE_URL_FILE' : 'DATABASE_URL', cause: rule.cause, url: shown };
    this.failure = said;
    this.fix = fix;
  }

  /** The same failure while the boot still tries: `next` says when it tries again. */
  retrying(next: string): string {
    return `${this.failure}; ${next} (if it lasts: ${this.fix})`;
  }
}

function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // An AggregateError (every address of a host refused) has no message of its own: its first error's says it.
  const first = (error as { errors?: unknown[] })?.errors?.[0];
  return message || (first instanceof Error ? first.message : 'no message');
}
