import { isDeepStrictEqual } from 'node:util';
import { normaliseImage } from '../common/image';
import { CoverImageDto } from './dto/cover-image.dto';
import { UpdatePageDto } from './dto/update-page.dto';
import { PageState } from './page-state';

/** Columns of pages an update may set, with their SQL types. */
export const PAGE_COLUMNS = {
  title: 'text',
  font: 'text',
  icon: 'jsonb',
  cover_image: 'jsonb',
  is_public: 'boolean',
  public_url: 'text',
  public_robots: 'text[]',
  hide_table_of_contents: 'boolean',
  hide_subpages: 'boolean',
  project_id: 'text',
  parent_id: 'bigint',
  sort_key: 'text',
} as const;

export type PageColumns = Partial<Record<keyof typeof PAGE_COLUMNS, unknown>>;

/**
 * The page's own columns (not its place in the tree) that a patch really changes: absent fields and
 * values equal to the stored ones are left out, so a patch that changes nothing writes nothing.
 */
export function pageFieldChanges(stored: PageState, patch: UpdatePageDto): PageColumns {
  const wanted: PageColumns = {};
  if (patch.title !== undefined) wanted.title = patch.title;
  if (patch.font !== undefined) wanted.font = patch.font;
  if (patch.icon !== undefined) wanted.icon = patch.icon && normaliseImage(patch.icon);
  if (patch.cover_image !== undefined) wanted.cover_image = patch.cover_image && normaliseCover(patch.cover_image);
  if (patch.is_public !== undefined) wanted.is_public = patch.is_public;
  if (patch.public_settings?.url !== undefined) wanted.public_url = patch.public_settings.url;
  if (patch.public_settings?.robots !== undefined) wanted.public_robots = [...patch.public_settings.robots];
  if (patch.hide_table_of_contents !== undefined) wanted.hide_table_of_contents = patch.hide_table_of_contents;
  if (patch.hide_subpages !== undefined) wanted.hide_subpages = patch.hide_subpages;
  return Object.fromEntries(
    Object.entries(wanted).filter(([column, value]) => !isDeepStrictEqual(stored[column as keyof PageState], value)),
  ) as PageColumns;
}

function normaliseCover(cover: CoverImageDto): object {
  const { positionY, object_fit } = cover;
  return { ...normaliseImage(cover), ...(positionY === undefined ? {} : { positionY }), ...(object_fit === undefined ? {} : { object_fit }) };
}
