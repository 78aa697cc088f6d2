import { DataSource } from 'typeorm';
import { named } from '../database/named-parameters';

/** The channel on which every instance hears that tokens or members changed (its TokenCache empties). */
export const AUTH_CHANGED_CHANNEL = 'auth_changed';

/**
 * Tells every instance that tokens or members changed, after the change committed, in a statement of its
 * own. On one PostgreSQL the tables' triggers say it too (migration 0005, for hand-written changes); on
 * Citus they cannot (citus/distribute.ts drops them), and this is what the instances hear.
 */
export async function announceAuthChange(db: DataSource): Promise<void> {
  await db.query(...named('SELECT pg_notify(:channel, NULL)', { channel: AUTH_CHANGED_CHANNEL }));
}
