import { plainToInstance, Transform } from 'class-transformer';
import { randomBytes } from 'node:crypto';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsIP,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  Min,
  MinLength,
  validateSync,
} from 'class-validator';
import { withoutPassword } from './redact';
import { readSecretFiles, SECRET_FILE_VARIABLES } from './secret-files';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const PORT_RANGE = '$property must be a port from 1 to 65535';

const toInt = () => Transform(({ value }) => (value === undefined ? undefined : Number(value)));
/** true/false/1/0 in any case; anything else stays a string, which @IsBoolean then rejects. */
const toBool = () =>
  Transform(({ value }: { value: unknown }) => {
    const text = typeof value === 'string' ? value.toLowerCase() : value;
    return text === 'true' || text === '1' ? true : text === 'false' || text === '0' ? false : value;
  });

/** The environment the service reads, validated once at boot. Every setting has a working default. */
class Environment {
  @toInt()
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  /** A PostgreSQL URL. Unset means: run the embedded PostgreSQL whose data lives in DATA_DIR. */
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, {
    message: 'DATABASE_URL must be a URL starting with postgres:// or postgresql://',
  })
  DATABASE_URL?: string;

  /** A file holding DATABASE_URL (Docker secrets); secret-files.ts reads it before validation, as for every *_FILE. */
  @IsOptional()
  @IsString()
  DATABASE_URL_FILE?: string;

  @IsString()
  DATA_DIR = './.data';

  /** Unset: the port remembered in DATA_DIR, which a new embedded PostgreSQL picks for itself. */
  @IsOptional()
  @toInt()
  @IsInt({ message: PORT_RANGE })
  @Min(1, { message: PORT_RANGE })
  @Max(65535, { message: PORT_RANGE })
  EMBEDDED_PG_PORT?: number;

  @toInt()
  @IsInt()
  @Min(1)
  @Max(500)
  DB_POOL_SIZE = 10;

  @toInt()
  @IsInt()
  @Min(100)
  @Max(60000)
  DB_CONNECT_TIMEOUT_MS = 3000;

  @toInt()
  @IsInt()
  @Min(100)
  @Max(600000)
  DB_STATEMENT_TIMEOUT_MS = 5000;

  @toBool()
  @IsBoolean({ message: 'RUN_MIGRATIONS must be true, false, 1 or 0' })
  RUN_MIGRATIONS = true;

  @IsIn(LOG_LEVELS)
  LOG_LEVEL: (typeof LOG_LEVELS)[number] = 'info';

  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true })
  PUBLIC_PAGES_BASE_URL?: string;

  /** Signs page collaboration tokens; every instance behind one address needs the same value. */
  @IsOptional()
  @IsString()
  @MinLength(32)
  COLLABORATION_SECRET?: string;

  @IsOptional()
  @IsString()
  COLLABORATION_SECRET_FILE?: string;

  /** Requests per token (per address without one) per minute and process; 0 turns the limit off. */
  @toInt()
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  RATE_LIMIT_PER_MINUTE = 1200;

  /** Requests per client address per minute and process to the public pages (/p, no token); 0 turns it off. */
  @toInt()
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  PUBLIC_RATE_LIMIT_PER_MINUTE = 600;

  /**
   * How long a token lookup is remembered (ms); 0 looks every token up on every request. A change to
   * tokens or members empties the cache of every instance at once (LISTEN/NOTIFY); this only bounds
   * how long a lookup is trusted.
   */
  @toInt()
  @IsInt()
  @Min(0)
  @Max(3_600_000)
  TOKEN_CACHE_TTL_MS = 10000;

  /** A request still unanswered after this long gets a 503, so no client waits forever. */
  @toInt()
  @IsInt()
  @Min(1000)
  @Max(600000)
  REQUEST_TIMEOUT_MS = 10000;

  /** Comma-separated browser origins allowed by CORS, or * for any; unset: no CORS headers. */
  @IsOptional()
  @IsString()
  CORS_ORIGINS?: string;

  /** Whether this process delivers webhook events (every API process does by default). */
  @toBool()
  @IsBoolean({ message: 'WEBHOOK_DELIVERY must be true, false, 1 or 0' })
  WEBHOOK_DELIVERY = true;

  /** Lets webhook URLs reach loopback, private and link-local addresses: local development and tests only. */
  @toBool()
  @IsBoolean({ message: 'WEBHOOK_ALLOW_PRIVATE_URLS must be true, false, 1 or 0' })
  WEBHOOK_ALLOW_PRIVATE_URLS = false;

  /** Seals webhook signing secrets at rest (AES-256-GCM); every instance needs the same value. */
  @IsOptional()
  @IsString()
  @MinLength(32)
  WEBHOOK_SECRET_KEY?: string;

  @IsOptional()
  @IsString()
  WEBHOOK_SECRET_KEY_FILE?: string;

  /** The first retry of a failed delivery waits this long; each next one twice as long. */
  @toInt()
  @IsInt()
  @Min(10)
  @Max(3_600_000)
  WEBHOOK_RETRY_BASE_MS = 5000;

  /** An event not delivered this long after it happened is given up. */
  @toInt()
  @IsInt()
  @Min(1000)
  @Max(7 * 86_400_000)
  WEBHOOK_RETRY_WINDOW_MS = 86_400_000;

  /** How often an idle delivery worker looks for due deliveries. */
  @toInt()
  @IsInt()
  @Min(10)
  @Max(60_000)
  WEBHOOK_POLL_INTERVAL_MS = 1000;

  /** Webhooks one process sends to at once (a batch of deliveries each: delivery-worker.ts). */
  @toInt()
  @IsInt()
  @Min(1)
  @Max(64)
  WEBHOOK_CONCURRENCY = 4;

  /** Finished deliveries, their attempts and their events are deleted after this long. */
  @toInt()
  @IsInt()
  @Min(60_000)
  @Max(365 * 86_400_000)
  WEBHOOK_RETENTION_MS = 7 * 86_400_000;

  /** The Prometheus metrics' own port (never the API's); 0 turns metrics off. Unset: 9464, or a free one if taken. */
  @toInt()
  @IsInt({ message: 'METRICS_PORT must be a port from 0 (off) to 65535' })
  @Min(0, { message: 'METRICS_PORT must be a port from 0 (off) to 65535' })
  @Max(65535, { message: 'METRICS_PORT must be a port from 0 (off) to 65535' })
  METRICS_PORT = 9464;

  /** The address the metrics port listens on: loopback unless a scraper elsewhere must reach it. */
  @IsIP(undefined, { message: 'METRICS_HOST must be an IP address (127.0.0.1, 0.0.0.0, ::)' })
  METRICS_HOST = '127.0.0.1';

  /** How often the retention is applied and the backlog logged. */
  @toInt()
  @IsInt()
  @Min(100)
  @Max(3_600_000)
  WEBHOOK_HOUSEKEEPING_INTERVAL_MS = 60_000;
}

/** Variables without a default, which `new Environment()` therefore does not list. */
const OPTIONAL_KEYS = [
  'DATABASE_URL',
  'EMBEDDED_PG_PORT',
  'PUBLIC_PAGES_BASE_URL',
  'COLLABORATION_SECRET',
  'CORS_ORIGINS',
  'WEBHOOK_SECRET_KEY',
  ...SECRET_FILE_VARIABLES.map((variable) => `${variable}_FILE`),
];

/** A configuration that cannot run: the message names every bad variable, one line each. */
export class ConfigError extends Error {
  constructor(
    message: string,
    readonly variables: string[] = [],
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Where the metrics listen. */
export interface MetricsSettings {
  port: number;
  host: string;
  /** METRICS_PORT was set: a taken port stops the boot instead of being replaced by a free one. */
  portRequired: boolean;
}

/** The WEBHOOK_* variables. */
export interface WebhookSettings {
  deliver: boolean;
  allowPrivateUrls: boolean;
  /** Unset: secrets are stored unsealed (a warning at boot says so). */
  secretKey: string | undefined;
  retryBaseMs: number;
  retryWindowMs: number;
  pollIntervalMs: number;
  concurrency: number;
  retentionMs: number;
  housekeepingIntervalMs: number;
}

/** Typed, validated configuration. Built only by loadConfig; injected into Nest as itself. */
export class AppConfig {
  readonly port: number;
  readonly databaseUrl: string | undefined;
  /** DATABASE_URL_FILE, when DATABASE_URL was read from it: messages about the URL name it. */
  readonly databaseUrlFile: string | undefined;
  readonly dataDir: string;
  readonly embeddedPgPort: number | undefined;
  readonly dbPoolSize: number;
  readonly dbConnectTimeoutMs: number;
  readonly dbStatementTimeoutMs: number;
  readonly runMigrations: boolean;
  readonly logLevel: string;
  readonly publicPagesBaseUrl: string;
  readonly collaborationSecret: string;
  readonly rateLimitPerMinute: number;
  readonly publicRateLimitPerMinute: number;
  readonly requestTimeoutMs: number;
  readonly tokenCacheTtlMs: number;
  /** undefined: CORS off; true: any origin. */
  readonly corsOrigins: string[] | true | undefined;
  readonly webhooks: WebhookSettings;
  /** Undefined: metrics are off (METRICS_PORT=0). */
  readonly metrics: MetricsSettings | undefined;

  /** `given`: the variables the environment set. */
  constructor(env: Environment, given: ReadonlySet<string>) {
    this.port = env.PORT;
    this.databaseUrl = env.DATABASE_URL;
    this.databaseUrlFile = env.DATABASE_URL_FILE;
    this.dataDir = env.DATA_DIR;
    this.embeddedPgPort = env.EMBEDDED_PG_PORT;
    this.dbPoolSize = env.DB_POOL_SIZE;
    this.dbConnectTimeoutMs = env.DB_CONNECT_TIMEOUT_MS;
    this.dbStatementTimeoutMs = env.DB_STATEMENT_TIMEOUT_MS;
    this.runMigrations = env.RUN_MIGRATIONS;
    this.logLevel = env.LOG_LEVEL;
    this.publicPagesBaseUrl = (env.PUBLIC_PAGES_BASE_URL ?? `http://localhost:${env.PORT}/p`).replace(/\/+$/, '');
    // Without a configured secret, tokens are valid only for this process's lifetime.
    this.collaborationSecret = env.COLLABORATION_SECRET ?? randomBytes(32).toString('hex');
    this.rateLimitPerMinute = env.RATE_LIMIT_PER_MINUTE;
    this.publicRateLimitPerMinute = env.PUBLIC_RATE_LIMIT_PER_MINUTE;
    this.requestTimeoutMs = env.REQUEST_TIMEOUT_MS;
    this.tokenCacheTtlMs = env.TOKEN_CACHE_TTL_MS;
    const origins = env.CORS_ORIGINS?.split(',')
      .map((o) => o.trim())
      .filter(Boolean);
    this.corsOrigins = origins?.includes('*') ? true : origins?.length ? origins : undefined;
    this.metrics =
      env.METRICS_PORT === 0
        ? undefined
        : { port: env.METRICS_PORT, host: env.METRICS_HOST, portRequired: given.has('METRICS_PORT') };
    this.webhooks = {
      deliver: env.WEBHOOK_DELIVERY,
      allowPrivateUrls: env.WEBHOOK_ALLOW_PRIVATE_URLS,
      secretKey: env.WEBHOOK_SECRET_KEY,
      retryBaseMs: env.WEBHOOK_RETRY_BASE_MS,
      retryWindowMs: env.WEBHOOK_RETRY_WINDOW_MS,
      pollIntervalMs: env.WEBHOOK_POLL_INTERVAL_MS,
      concurrency: env.WEBHOOK_CONCURRENCY,
      retentionMs: env.WEBHOOK_RETENTION_MS,
      housekeepingIntervalMs: env.WEBHOOK_HOUSEKEEPING_INTERVAL_MS,
    };
  }
}

/**
 * Reads and validates the environment, each *_FILE read into its variable first; throws a ConfigError naming
 * every bad variable. An empty value counts as unset.
 */
export function loadConfig(source: NodeJS.ProcessEnv = process.env, overrides: Record<string, string> = {}): AppConfig {
  const known = Object.keys(new Environment());
  const picked = Object.fromEntries(
    Object.entries({ ...source, ...overrides }).filter(
      (entry): entry is [string, string] =>
        entry[1] !== undefined && entry[1] !== '' && (known.includes(entry[0]) || OPTIONAL_KEYS.includes(entry[0])),
    ),
  );
  const { values, problems } = readSecretFiles(picked);
  const env = plainToInstance(Environment, values);
  const errors = validateSync(env, { forbidUnknownValues: false });
  const invalid = [
    ...problems,
    ...errors.map((e) => ({
      variable: e.property,
      text:
        `${named(e.property, picked)}=${shown(e.property, values[e.property])}: ` +
        `${[...new Set(Object.values(e.constraints ?? {}))].join('; ')}`,
    })),
  ];
  if (invalid.length > 0) {
    throw new ConfigError(
      `Invalid configuration:\n${invalid.map((p) => `  ${p.text}`).join('\n')}`,
      invalid.map((p) => p.variable),
    );
  }
  return new AppConfig(env, new Set(Object.keys(picked)));
}

/** A variable as an error names it: with the file it was read from, if it was. */
function named(key: string, given: Record<string, string>): string {
  const file = given[`${key}_FILE`];
  return file === undefined ? key : `${key} (from ${key}_FILE=${JSON.stringify(file)})`;
}

/** A rejected value as the error shows it: secrets and URL passwords are hidden, since the message reaches logs. */
function shown(key: string, value: unknown): string {
  if (key === 'COLLABORATION_SECRET' || key === 'WEBHOOK_SECRET_KEY') return '(hidden)';
  return JSON.stringify(typeof value === 'string' ? withoutPassword(value) : value);
}
