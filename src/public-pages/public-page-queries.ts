import { Image } from '../common/image';
import { statement } from '../database/statement';
import { stimeSql } from '../database/stime';

/** What GET /p/{alias_id} shows of a page, and what its ETag is made of. */
export interface PublicPageRow {
  id: string;
  alias_id: string;
  title: string;
  font: string;
  icon: Image | null;
  cover_image: Image | null;
  /** null when the caller said it holds this version rendered (renderedKey): it is not sent again. */
  content: string | null;
  public_robots: string[];
  time_updated: number;
  /** Names this version of this page: workspace, id, version and time of change. */
  render_key: string;
}

/**
 * The shared, active page with this alias, its workspace read as `team(alias)` of the directory's row
 * or the page's. The content, up to 500,000 characters, is left out when it is the version the caller
 * holds rendered (:renderedKey; '' for none). The LIMIT inside the LATERAL and the scalar archive check
 * keep every plan, even one made on empty tables, to probes by key: a join or anti-join there may be
 * planned as a walk over a whole index.
 */
const publicPage = (team: (alias: string) => string) => `
  SELECT p.id::text, p.alias_id::text, p.title, p.font, p.icon, p.cover_image,
         CASE WHEN k.render_key = :renderedKey THEN NULL ELSE p.content END AS content,
         p.public_robots, ${stimeSql('p.time_updated')}::float8 AS time_updated, k.render_key
    FROM public_page_aliases d
   CROSS JOIN LATERAL (
         SELECT p.* FROM pages p
          WHERE p.team_id = ${team('d')} AND p.id = d.page_id AND p.alias_id = d.alias_id AND p.is_public
            AND (SELECT a.page_id FROM page_archives a WHERE a.team_id = ${team('p')} AND a.page_id = p.id) IS NULL
          LIMIT 1) p
   CROSS JOIN LATERAL (SELECT concat_ws('/', p.team_id, p.id, p.version, ${stimeSql('p.time_updated')})
                              AS render_key) k
   WHERE d.alias_id = :aliasId`;

/**
 * One PostgreSQL: the shared page, in one round trip: the directory of shared pages (migration 0015)
 * gives the workspace by its key (an alias names one page of the service: migration 0016), then the page
 * is read by its own key.
 */
export const READ_PUBLIC_PAGE = statement<{ aliasId: string; renderedKey: string }, PublicPageRow>(
  'read_public_page',
  publicPage((alias) => `${alias}.team_id`),
);

/** Citus: the shared page in the workspace PUBLIC_PAGE_WORKSPACE gave, every table read in its shard. */
export const READ_WORKSPACE_PUBLIC_PAGE = statement<
  { aliasId: string; teamId: string; renderedKey: string },
  PublicPageRow
>('read_workspace_public_page', `${publicPage(() => ':teamId')} AND d.team_id = :teamId`);

/**
 * On Citus, the workspace of the page shared under an alias: the directory is distributed by workspace, so
 * this asks every shard (docs/public-pages.md); the service keeps the answer for later requests.
 */
export const PUBLIC_PAGE_WORKSPACE = statement<{ aliasId: string }, { team_id: string }>(
  'public_page_workspace',
  `SELECT team_id FROM public_page_aliases WHERE alias_id = :aliasId`,
);
