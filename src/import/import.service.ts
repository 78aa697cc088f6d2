import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { retryOnConflict } from '../database/retry-on-conflict';
import { runStatements } from './bulk-statements';
import { Collection, COLLECTIONS } from './dto/import-document.dto';
import { loadExistingState } from './existing-state';
import { listDocument } from './listed-document';
import { planCards, planTags } from './plan-cards';
import { planNoteTemplates } from './plan-note-templates';
import { planPages } from './plan-pages';
import { planTokens } from './plan-tokens';
import { planWorkspaces } from './plan-workspaces';
import { References } from './references';
import { validateDocument } from './validate-document';

/** How many entries of each collection the document had. */
export type ImportSummary = Record<Collection, number>;

/**
 * Past this many entries an import refreshes the planner's statistics: on tables that grew from
 * nearly empty, stale statistics make PostgreSQL pick whole-workspace scans for foreign-key checks,
 * and the next large import (or request) goes quadratic.
 */
const ANALYZE_AFTER_ENTRIES = 1000;

@Injectable()
export class ImportService {
  constructor(private readonly db: DataSource) {}

  /**
   * Creates or updates everything the document lists, by id, in one transaction: all of it or,
   * on any ImportError (which names the offending entry), none of it.
   */
  async importDocument(input: unknown): Promise<ImportSummary> {
    const doc = await validateDocument(input);
    const listed = listDocument(doc);
    // On Citus the reference tables (workspaces, tokens, members) are written on every node, where two
    // imports can wait on each other: the loser runs again, whole.
    await retryOnConflict(() =>
      this.db.transaction(async (tx) => {
        // On Citus, a transaction that read shards in parallel may not then write a reference table (the
        // workspaces, tokens, members it imports); one connection per node lets it. Elsewhere a setting nothing reads.
        await tx.query(`SET LOCAL citus.multi_shard_modify_mode TO 'sequential'`);
        const existing = await loadExistingState(tx, doc);
        const refs = new References(doc, existing);
        // Every check runs before the first write; the writes go in dependency order.
        const statements = [
          ...planWorkspaces(listed, refs),
          ...planTokens(listed.tokens, refs, existing, new Date()),
          ...planNoteTemplates(listed.note_templates, refs),
          ...planPages(listed.pages, refs, existing),
          ...planTags(listed.tags, refs),
          ...planCards(listed.cards, refs),
        ];
        await runStatements(tx, statements);
      }),
    );
    const summary = Object.fromEntries(COLLECTIONS.map((c) => [c, listed[c].length])) as ImportSummary;
    if (Object.values(summary).reduce((a, b) => a + b, 0) >= ANALYZE_AFTER_ENTRIES) await this.db.query('ANALYZE');
    return summary;
  }
}
