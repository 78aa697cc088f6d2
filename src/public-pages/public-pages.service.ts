import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { createHash } from 'node:crypto';
import { CitusProbe } from '../database/citus/citus-probe';
import { Sql } from '../database/sql';
import { pageDocument } from './public-page-document';
import { PublicPageErrors } from './public-page-errors';
import {
  PUBLIC_PAGE_WORKSPACE,
  READ_PUBLIC_PAGE,
  READ_WORKSPACE_PUBLIC_PAGE,
  PublicPageRow,
} from './public-page-queries';
import { PublicPageForm, PublicPageRepresentation } from './public-page-representation';
import { sanitisePageContent } from './public-page-sanitiser';

const ALIAS_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Changes whenever the rendering does, so that an ETag never names the output of an older one. */
const RENDERING = 'r1';

/** Bodies of recent page versions: a version is sanitised and rendered once, not per request. */
const RENDERED_BYTES = 64 * 1024 * 1024;
const KNOWN_ALIASES = 100_000;

const CONTENT_TYPES: Record<PublicPageForm, string> = {
  html: 'text/html; charset=utf-8',
  json: 'application/json; charset=utf-8',
};

/** A version of a page in one form, as sent. */
interface Rendered {
  body: Buffer;
  etag: string;
}

@Injectable()
export class PublicPagesService {
  private readonly rendered = new LRUCache<string, Rendered>({
    maxSize: RENDERED_BYTES,
    sizeCalculation: ({ body }) => Math.max(1, body.length),
  });
  /** Per form and alias, the version last rendered: the statement then leaves its content out. */
  private readonly lastRendered = new LRUCache<string, string>({ max: KNOWN_ALIASES });
  /** On Citus, the workspace of each alias: an alias stays in its workspace while it is shared. */
  private readonly workspaces = new LRUCache<string, string>({ max: KNOWN_ALIASES });
  private readonly citus: CitusProbe;

  constructor(private readonly sql: Sql) {
    this.citus = new CitusProbe(sql);
  }

  /**
   * The page shared under `aliasId`, in `form`; 304 when `ifNoneMatch` names its current ETag. Any page
   * that is not there to show is the same notFound, and a malformed alias never reaches the database.
   */
  async show(
    aliasId: string,
    form: PublicPageForm,
    ifNoneMatch: string | undefined,
  ): Promise<PublicPageRepresentation> {
    if (!ALIAS_SHAPE.test(aliasId)) throw PublicPageErrors.notFound();
    const alias = aliasId.toLowerCase();
    const known = `${form}:${alias}`;
    let page = await this.read(alias, this.lastRendered.get(known) ?? '');
    let rendered = this.rendered.get(`${form}:${page.render_key}`);
    const etag = rendered?.etag ?? etagOf(form, page);
    if (ifNoneMatch !== undefined && matches(ifNoneMatch, etag))
      return { contentType: CONTENT_TYPES[form], robots: page.public_robots, etag, status: 304, body: Buffer.alloc(0) };
    if (rendered === undefined) {
      // Left out by the statement, yet evicted from the cache since: read it in full (maybe a newer version).
      if (page.content === null) page = await this.read(alias, '');
      rendered = { body: Buffer.from(render(page, form)), etag: etagOf(form, page) };
      this.rendered.set(`${form}:${page.render_key}`, rendered);
    }
    this.lastRendered.set(known, page.render_key);
    return { contentType: CONTENT_TYPES[form], robots: page.public_robots, ...rendered, status: 200 };
  }

  private async read(alias: string, renderedKey: string): Promise<PublicPageRow> {
    const [page] = (await this.citus.isCitus())
      ? await this.sql.query(READ_WORKSPACE_PUBLIC_PAGE, {
          aliasId: alias,
          teamId: await this.workspaceOf(alias),
          renderedKey,
        })
      : await this.sql.query(READ_PUBLIC_PAGE, { aliasId: alias, renderedKey });
    if (!page) {
      this.workspaces.delete(alias);
      throw PublicPageErrors.notFound();
    }
    return page;
  }

  /** On Citus, the alias's workspace: from the directory once (every shard is asked), then remembered. */
  private async workspaceOf(alias: string): Promise<string> {
    const known = this.workspaces.get(alias);
    if (known !== undefined) return known;
    const [entry] = await this.sql.query(PUBLIC_PAGE_WORKSPACE, { aliasId: alias });
    if (!entry) throw PublicPageErrors.notFound();
    this.workspaces.set(alias, entry.team_id);
    return entry.team_id;
  }
}

function render(page: PublicPageRow, form: PublicPageForm): string {
  const content = sanitisePageContent(page.content ?? '');
  if (form === 'json') {
    const { id, alias_id, title, font, icon, cover_image, time_updated } = page;
    return JSON.stringify({ page: { id, alias_id, title, font, icon, cover_image, content, time_updated } });
  }
  return pageDocument({
    title: page.title,
    font: page.font,
    icon: page.icon,
    coverImage: page.cover_image,
    robots: page.public_robots,
    sanitisedContent: content,
  });
}

/** Strong: one per version of the page, form and rendering. */
function etagOf(form: PublicPageForm, page: PublicPageRow): string {
  return `"${createHash('sha256').update(`${RENDERING}:${form}:${page.render_key}`).digest('base64url').slice(0, 27)}"`;
}

/** If-None-Match's weak comparison: any listed tag, W/ or not, or `*`. */
function matches(ifNoneMatch: string, etag: string): boolean {
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === etag || tag === '*');
}
