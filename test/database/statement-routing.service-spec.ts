import { catalogue } from '../../src/sql-catalogue/catalogue';
import { routingViolations } from '../support/routing/workspace-routing';
import { workspaceTables } from '../support/workspace-tables';

/**
 * The statements that reach across workspaces by design, and why: none serves a request inside one
 * workspace. Every other statement must be routable by workspace.
 */
const ACROSS_WORKSPACES: Record<string, string> = {
  authenticate: 'a token is found by the hash of its secret, before its workspace is known',
  sweep_keys: 'housekeeping: the expired idempotency keys of every workspace',
  claim_webhook_deliveries:
    'the delivery worker on one PostgreSQL: the webhook of any workspace due first (on Citus: due_webhooks)',
  on_citus: 'reads the catalogue of extensions, no table',
  public_page_workspace:
    'on Citus, the workspace of a shared page is found by its alias in every shard, then remembered',
  due_webhooks: 'the delivery worker: the webhooks of any workspace with deliveries due, read without a lock',
  workspaces_to_trim: 'housekeeping: the workspaces with webhook data past the retention, read without a lock',
  webhook_backlog: 'housekeeping: the backlog of every workspace',
  read_public_page:
    'a shared page is found by its alias before its workspace is known: public_page_aliases by its key gives it',
};

/**
 * So that the service can run on a distributed PostgreSQL (Citus, team_id the distribution column),
 * every statement, each form, parsed by PostgreSQL's own parser: every workspace table it references,
 * in subqueries, CTEs and recursive terms too, is constrained by `team_id = :teamId`, and no function
 * that is not immutable stands where Citus refuses one (ON CONFLICT DO UPDATE SET, an UPDATE's SET over
 * columns, a write's CASE or COALESCE).
 */
describe('Statements routable by workspace', () => {
  const entries = catalogue();
  let tables: Set<string>;
  beforeAll(async () => {
    tables = await workspaceTables();
  });

  it.each(entries.filter((entry) => !(entry.statement.name in ACROSS_WORKSPACES)).map((e) => [e.statement.name, e]))(
    '%s',
    async (_, { statement }) => {
      const team = statement.parameters.indexOf('teamId');
      expect(team).toBeGreaterThanOrEqual(0);
      const violations = await routingViolations(statement.text, {
        workspaceTables: tables,
        teamParam: `$${team + 1}`,
      });
      expect(violations).toEqual([]);
    },
  );

  it('names only statements that exist and take no workspace', () => {
    const byName = new Map(entries.map((entry) => [entry.statement.name, entry.statement]));
    for (const name of Object.keys(ACROSS_WORKSPACES)) expect(byName.get(name)?.parameters).not.toContain('teamId');
  });
});
