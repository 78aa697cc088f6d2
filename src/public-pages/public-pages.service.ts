import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { createHash } from 'node:crypto';
import { Sql } from '../database/sql';
import { pageDocument } from './public-page-document';
import { PublicPageErrors } from './public-page-errors';
import { READ_PUBLIC_PAGE, PublicPageRow } from './public-page-queries';
import { PublicPageForm, PublicPageRepresentation } from './public-page-representation';
import { sanitisePageContent } from './public-page-sanitiser';

const ALIAS_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Changes whenever the rendering does, so that an ETag never names the output of an older one. */
const RENDERING = 'r1';

/** Bodies of recent page versions: a version is sanitised and rendered once, not per request. */
const RENDERED_BYTES = 64 * 1024 * 1024;

const CONTENT_TYPES: Record<PublicPageForm, string> = {
  html: 'text/html; charset=utf-8',
  json: 'application/json; charset=utf-8',
};

@Injectable()
export class PublicPagesService {
  private readonly rendered = new LRUCache<string, string>({
    maxSize: RENDERED_BYTES,
    sizeCalculation: (body) => Math.max(1, body.length * 2),
  });

  constructor(private readonly sql: Sql) {}

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
    const [page] = await this.sql.query(READ_PUBLIC_PAGE, { aliasId: aliasId.toLowerCase() });
    if (!page) throw PublicPageErrors.notFound();
    // time_updated too: a page deleted and imported again under its old id starts again at version 1.
    const key = `${form}:${page.team_id}/${page.id}/${page.version}/${page.time_updated}`;
    const etag = `"${createHash('sha256').update(`${RENDERING}:${key}`).digest('base64url').slice(0, 27)}"`;
    const common = { contentType: CONTENT_TYPES[form], etag, robots: page.public_robots };
    if (ifNoneMatch !== undefined && matches(ifNoneMatch, etag)) return { ...common, status: 304, body: '' };
    let body = this.rendered.get(key);
    if (body === undefined) this.rendered.set(key, (body = render(page, form)));
    return { ...common, status: 200, body };
  }
}

function render(page: PublicPageRow, form: PublicPageForm): string {
  const content = sanitisePageContent(page.content);
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

/** If-None-Match's weak comparison: any listed tag, W/ or not, or `*`. */
function matches(ifNoneMatch: string, etag: string): boolean {
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === etag || tag === '*');
}
