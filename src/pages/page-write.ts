import { Caller } from '../auth/caller';
import { normaliseImage } from '../common/image';
import { limitedToListedResources } from '../workspaces/role-permissions';
import { CoverImageDto } from './dto/cover-image.dto';
import { UpdatePageDto } from './dto/update-page.dto';
import { TreeChange } from './page-plan';
import { KeyParams } from '../safe-writes/idempotency-queries';
import { WritePageParams } from './page-queries';

/** jsonb goes as JSON text: pg would send an array as a PostgreSQL array. */
const json = (value: object | null) => (value === null ? null : JSON.stringify(value));

/**
 * WRITE_PAGE's parameters for a patch (its fields as the contract normalises them) and the tree
 * change planned for it. WRITE_PAGE itself leaves out what equals the stored values.
 */
export function writePageParams(
  caller: Caller,
  teamId: string,
  pageId: string,
  patch: UpdatePageDto,
  tree: TreeChange,
  key: KeyParams,
  collaborationToken: string,
): WritePageParams {
  const { icon, cover_image: cover, public_settings: publicSettings } = patch;
  return [
    teamId,
    pageId,
    caller.userId,
    JSON.stringify(caller.actor),
    limitedToListedResources(caller.role),
    patch.title ?? null,
    patch.font ?? null,
    icon !== undefined,
    json(icon ? normaliseImage(icon) : null),
    cover !== undefined,
    json(cover ? normaliseCover(cover) : null),
    patch.is_public ?? null,
    publicSettings?.url !== undefined,
    publicSettings?.url ?? null,
    publicSettings?.robots ? [...publicSettings.robots] : null,
    patch.hide_table_of_contents ?? null,
    patch.hide_subpages ?? null,
    tree.place !== null,
    tree.place?.projectId ?? null,
    tree.place?.parentId ?? null,
    tree.place?.sortKey ?? null,
    tree.position,
    tree.carriesSubtree,
    tree.archives,
    tree.unarchivedRoot,
    ...key,
    collaborationToken,
  ];
}

function normaliseCover(cover: CoverImageDto): object {
  const { positionY, object_fit } = cover;
  return {
    ...normaliseImage(cover),
    ...(positionY === undefined ? {} : { positionY }),
    ...(object_fit === undefined ? {} : { object_fit }),
  };
}
