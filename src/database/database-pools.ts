import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Pool, PoolConfig } from 'pg';
import { AppConfig } from '../config/app-config';
import { CITUS_INSTALLED } from './citus/citus-installed';
import { poolSettings } from './data-source-options';

/**
 * On a Citus coordinator the request pool's generic plans are left to Citus (`auto`): it makes a generic plan of
 * a statement it can route by its parameters, and prices any other so high that PostgreSQL plans that one with
 * its values at each execution (docs/citus.md, "Plans"). A pool that asked for custom plans keeps them. Run by
 * the pool before it hands a new connection out; on plain PostgreSQL it changes nothing.
 */
const CITUS_CHOOSES_PLANS = `SELECT set_config('plan_cache_mode', 'auto', false)
                               WHERE current_setting('plan_cache_mode') = 'force_generic_plan' AND ${CITUS_INSTALLED}`;

/** A pool's settings on `databaseUrl`: the validated configuration's, and Citus's choice of plans on Citus. */
export function poolConfig(config: AppConfig, databaseUrl: string): PoolConfig {
  return {
    connectionString: databaseUrl,
    ...poolSettings(config),
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- pg-pool awaits it; @types/pg says void
    onConnect: async (client) => void (await client.query(CITUS_CHOOSES_PLANS)),
  };
}

/** Injection token of the request paths' pg pool (Sql runs on it). */
export const REQUEST_POOL = Symbol('REQUEST_POOL');

/**
 * Opens pg pools on the database the process was started for, with the validated configuration's
 * settings (size, timeouts, generic plans; Citus's choice on Citus), and ends them at shutdown. The request
 * paths' pool is one; the webhook delivery worker opens its own, with its overrides. TypeORM keeps a pool of
 * its own for the migrations, the import and export, and the CLI.
 */
@Injectable()
export class DatabasePools implements OnApplicationShutdown {
  private readonly opened: Pool[] = [];
  /** The open pools by name (their application_name, else `requests`), for the metrics. */
  readonly named = new Map<string, Pool>();

  constructor(
    private readonly config: AppConfig,
    private readonly databaseUrl: string,
  ) {}

  open(overrides: PoolConfig = {}): Pool {
    const pool = new Pool({ ...poolConfig(this.config, this.databaseUrl), ...overrides });
    pool.on('error', () => undefined); // an idle connection lost: the pool replaces it
    this.opened.push(pool);
    this.named.set(String(overrides.application_name ?? 'requests'), pool);
    return pool;
  }

  async onApplicationShutdown(): Promise<void> {
    this.named.clear();
    await Promise.all(this.opened.splice(0).map((pool) => pool.end()));
  }
}
