import * as tokenQueries from '../auth/token-queries';
import * as cardQueries from '../cards/card-queries';
import * as citusQueries from '../database/citus/citus-probe';
import { declaredStatements, Statement } from '../database/statement';
import * as noteTemplateLifecycleQueries from '../notes/note-template-lifecycle-queries';
import * as noteTemplateQueries from '../notes/note-template-queries';
import * as pageCopyQueries from '../pages/page-copy-queries';
import * as pageCreationQueries from '../pages/page-creation-queries';
import * as pageDeletionQueries from '../pages/page-deletion-queries';
import * as pageQueries from '../pages/page-queries';
import * as publicPageQueries from '../public-pages/public-page-queries';
import * as pageListQueries from '../pages/page-list-queries';
import * as idempotencyQueries from '../safe-writes/idempotency-queries';
import * as tagQueries from '../tags/tag-queries';
import * as webhookQueries from '../webhooks/webhook-queries';

/** Every module of statements, by the feature (folder) it belongs to. */
const STATEMENT_MODULES: Record<string, Record<string, unknown>> = {
  auth: tokenQueries,
  cards: cardQueries,
  database: citusQueries,
  notes: { ...noteTemplateQueries, ...noteTemplateLifecycleQueries },
  pages: { ...pageQueries, ...pageCreationQueries, ...pageCopyQueries, ...pageDeletionQueries },
  'pages-list': pageListQueries,
  'safe-writes': idempotencyQueries,
  tags: tagQueries,
  webhooks: webhookQueries,
  'public-pages': publicPageQueries,
};

/** One statement of the catalogue, in one form. */
export interface CatalogueEntry {
  feature: string;
  /** The constant that declares it, and for a write statement its form (write-statement.ts). */
  declaredAs: string;
  statement: Statement<never, unknown>;
}

const isStatement = (value: unknown): value is Statement<never, unknown> =>
  typeof value === 'object' && value !== null && 'name' in value && 'source' in value && 'text' in value;

/**
 * Every statement the service sends, each form of a write statement apart, in feature and name order.
 * A statement declared by a module this list does not name is an error: it would escape the snapshots
 * and the checks on them.
 */
export function catalogue(): CatalogueEntry[] {
  const entries: CatalogueEntry[] = [];
  for (const [feature, exports] of Object.entries(STATEMENT_MODULES))
    for (const [constant, value] of Object.entries(exports)) {
      if (isStatement(value)) entries.push({ feature, declaredAs: constant, statement: value });
      else if (typeof value === 'object' && value !== null)
        for (const [form, inner] of Object.entries(value))
          if (isStatement(inner)) entries.push({ feature, declaredAs: `${constant}.${form}`, statement: inner });
    }
  const listed = new Set(entries.map((entry) => entry.statement.name));
  const unlisted = [...declaredStatements().keys()].filter((name) => !listed.has(name));
  if (unlisted.length > 0) throw new Error(`Statements outside the catalogue's modules: ${unlisted.join(', ')}`);
  return entries.sort((a, b) => a.feature.localeCompare(b.feature) || a.statement.name.localeCompare(b.statement.name));
}
