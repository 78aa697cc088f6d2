/**
 * Names unique ignoring case within their scope: among the workspace-wide tags, and among one project's
 * tags, so that the database, not the process, decides which of two concurrent creates of "Bug" and "bug"
 * wins. The key is stored (name_key, by simple_lowercase, in code point order), so that the lists read it
 * instead of computing it for every row. Names already taken twice get the later tag's id appended, since
 * the index could not be built otherwise. The third index serves the list of every tag, by name_key, then id.
 * One statement each: Citus sends a query's whole text to its workers, and refuses several commands in one.
 */
export const TAG_NAME_KEYS = [
  `ALTER TABLE tags ADD COLUMN name_key text COLLATE "C" GENERATED ALWAYS AS (simple_lowercase(name)) STORED`,
  `UPDATE tags t SET name = left(t.name, 200) || ' (' || t.id::text || ')', version = t.version + 1
    FROM (SELECT team_id, id, row_number() OVER (PARTITION BY team_id, project_id, name_key ORDER BY id) AS n
            FROM tags) d
   WHERE t.team_id = d.team_id AND t.id = d.id AND d.n > 1`,
  `CREATE UNIQUE INDEX tags_workspace_name_key ON tags (team_id, name_key) WHERE project_id IS NULL`,
  `CREATE UNIQUE INDEX tags_project_name_key ON tags (team_id, project_id, name_key) WHERE project_id IS NOT NULL`,
  `CREATE INDEX tags_name_order ON tags (team_id, name_key, id)`,
];
