import { QueryRunner } from 'typeorm';
import { named } from '../named-parameters';
import { WORKSPACE_TABLES } from './distribution-plan';

/** The first argument of every write function of the migrations: the workspace it writes in. */
export const WORKSPACE_ARGUMENT = 'p_team_id';

/**
 * Distributes the write functions (every function of the schema whose first argument is the workspace) by
 * that argument, colocated with the workspace tables: a call made outside a transaction block then runs
 * whole on the node that holds the workspace's shards (Citus's function call delegation), one round trip
 * from the coordinator to one worker. Only functions not distributed yet: run after every migration:run,
 * it takes in a function a later migration adds. Returns their signatures.
 */
export async function distributeWriteFunctions(runner: QueryRunner): Promise<string[]> {
  const rows = (await runner.query(
    ...named(
      `SELECT p.oid::regprocedure::text AS signature FROM pg_proc p
        WHERE p.pronamespace = current_schema()::regnamespace AND p.proargnames[1] = :argument
          AND NOT EXISTS (SELECT 1 FROM pg_dist_object o
                           WHERE o.classid = 'pg_proc'::regclass AND o.objid = p.oid
                             AND o.distribution_argument_index IS NOT NULL)
        ORDER BY 1`,
      { argument: WORKSPACE_ARGUMENT },
    ),
  )) as Array<{ signature: string }>;
  for (const { signature } of rows)
    await runner.query(
      ...named(`SELECT create_distributed_function(:signature, :argument, colocate_with => :table)`, {
        signature,
        argument: WORKSPACE_ARGUMENT,
        table: WORKSPACE_TABLES[0],
      }),
    );
  return rows.map((row) => row.signature);
}
