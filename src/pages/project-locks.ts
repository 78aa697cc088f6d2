import type { SqlSession } from '../database/sql';

/**
 * Serialises structural changes (moves, reorders, archiving) per project, across every API process:
 * a transaction-scoped advisory lock per project, taken in one order so two movers never deadlock.
 * Title and display changes do not take it; they only lock their own row.
 */
export async function lockProjects(tx: SqlSession, teamId: string, projectIds: Iterable<string>): Promise<void> {
  const keys = [...new Set(projectIds)].sort().map((projectId) => `${teamId}/${projectId}`);
  if (keys.length === 0) return;
  await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended(k, 0)) FROM unnest($1::text[]) WITH ORDINALITY AS t(k, n) ORDER BY n`, [keys]);
}
