import type { SqlSession, Statement, StatementParams } from '../database/statement';

/** One statement with its parameters, checked against each other where it is made. */
export interface Step {
  run(tx: SqlSession): Promise<unknown>;
}

export function step<Params extends StatementParams, Row>(statement: Statement<Params, Row>, params: Params): Step {
  return { run: (tx) => tx.query(statement, params) };
}

/** What a patch does to the page's place in the tree; the service carries it out with the page's own write. */
export interface TreeChange {
  /** Run before the page's write: fresh sibling keys, in the rare rebalancing. */
  steps: Step[];
  /** Where the page lands; null: it stays where it is. */
  place: { projectId: string; parentId: string | null; sortKey: string } | null;
  /** Its rank there, when the change knows it (null: counted on reading). */
  position: number | null;
  /** Its subpages follow it to another project. */
  carriesSubtree: boolean;
  /** It and its subpages are archived. */
  archives: boolean;
  /** It is brought back with the pages archived with it under this root. */
  unarchivedRoot: string | null;
}

export const NO_CHANGE: TreeChange = {
  steps: [],
  place: null,
  position: null,
  carriesSubtree: false,
  archives: false,
  unarchivedRoot: null,
};
