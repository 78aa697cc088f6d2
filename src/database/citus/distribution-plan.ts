/**
 * Where each table of the migrations lives on a Citus cluster (docs/citus.md). Workspace tables are
 * distributed by `team_id` and colocated, so that every statement of a request, which names its
 * workspace (the write path's rule 9), runs on one shard, joins and foreign keys included. A test
 * checks that this plan names every table the migrations create, once.
 */

/**
 * Reference tables: copied whole to every node, so that any shard may join them or hold a foreign key
 * to them. Small, global, written rarely.
 */
export const REFERENCE_TABLES: Record<string, string> = {
  workspaces: 'global: every workspace table refers to it',
  users: 'global: a user may belong to many workspaces',
  // A token is found by its hash before its workspace is known: as a reference table, the lookup and
  // its member's role are read on the node that took the request, in one statement, asking no shard.
  members: 'read with every token lookup, before the workspace is known; one row per member',
  tokens: 'found by the hash of its secret before its workspace is known; one row per token',
  schema_migrations: 'the migrations applied, one row each',
};

/** Distributed by `team_id`, each colocated with the first. */
export const WORKSPACE_TABLES: readonly string[] = [
  'projects',
  'note_templates',
  'note_template_favourites',
  'pages',
  'page_archives',
  'page_members',
  'page_bookmarks',
  'page_watchers',
  'page_comments',
  'page_sibling_blocks',
  'page_moves',
  'public_page_aliases',
  'tags',
  'cards',
  'card_members',
  'card_tags',
  'idempotency_keys',
  'webhooks',
  'webhook_events',
  'webhook_deliveries',
  'webhook_attempts',
  'webhook_streams',
  'id_counters',
];

/** The column every workspace table is distributed by. */
export const DISTRIBUTION_COLUMN = 'team_id';
