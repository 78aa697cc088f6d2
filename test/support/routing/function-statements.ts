import { loadModule, parsePlPgSQLSync } from 'libpg-query';

/** PL/pgSQL's parse modes of an expression (parser.h, RawParseMode): a whole statement; 3 to 5 are assignments. */
const WHOLE_STATEMENT = 0;
const ASSIGNMENTS = [3, 4, 5];

/** The SELECT PL/pgSQL runs for an expression: an assignment's (`x := expr`) is its right-hand side's. */
function asStatement(query: string, parseMode = WHOLE_STATEMENT): string {
  if (parseMode === WHOLE_STATEMENT) return query;
  return `SELECT ${ASSIGNMENTS.includes(parseMode) ? query.replace(/^[^:=]*:?=/, '') : query}`;
}

/**
 * Every SQL statement a PL/pgSQL function runs (`definition`: its CREATE FUNCTION), as a statement of its
 * own: its queries whole, and each expression (a condition, an assignment, a default, a RETURN) as the
 * SELECT PL/pgSQL runs it as. Parsed by PostgreSQL's own PL/pgSQL parser (libpg-query).
 */
export async function functionStatements(definition: string): Promise<string[]> {
  await loadModule();
  const found: string[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    for (const [kind, payload] of Object.entries(node)) {
      if (kind === 'PLpgSQL_expr') {
        const { query, parseMode } = payload as { query: string; parseMode?: number };
        found.push(asStatement(query, parseMode));
      } else visit(payload);
    }
  };
  visit(parsePlPgSQLSync(definition));
  return found;
}
