import { Caller } from '../auth/caller';
import { normaliseImage } from '../common/image';
import { limitedToListedResources } from '../workspaces/role-permissions';
import { CoverImageDto } from './dto/cover-image.dto';
import { UpdatePageDto } from './dto/update-page.dto';
import { TreeChange } from './page-plan';
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
  collaborationToken: string,
): WritePageParams {
  const { icon, cover_image: cover, public_settings: publicSettings } = patch;
  return {
    teamId,
    pageId,
    callerId: caller.userId,
    actor: JSON.stringify(caller.actor),
    listedOnly: limitedToListedResources(caller.role),
    title: patch.title ?? null,
    font: patch.font ?? null,
    setIcon: icon !== undefined,
    icon: json(icon ? normaliseImage(icon) : null),
    setCover: cover !== undefined,
    cover: json(cover ? normaliseCover(cover) : null),
    isPublic: patch.is_public ?? null,
    setPublicUrl: publicSettings?.url !== undefined,
    publicUrl: publicSettings?.url ?? null,
    robots: publicSettings?.robots ? [...publicSettings.robots] : null,
    hideTableOfContents: patch.hide_table_of_contents ?? null,
    hideSubpages: patch.hide_subpages ?? null,
    ...treeParams(tree),
    collaborationToken,
  };
}

/** WRITE_PAGE's parameters for the tree change planned. */
export function treeParams(tree: TreeChange): Pick<WritePageParams, TreeParamName> {
  return {
    moves: tree.place !== null,
    projectId: tree.place?.projectId ?? null,
    parentId: tree.place?.parentId ?? null,
    sortKey: tree.place?.sortKey ?? null,
    position: tree.position,
    carriesSubtree: tree.carriesSubtree,
    archives: tree.archives,
    unarchivedRoot: tree.unarchivedRoot,
  };
}

type TreeParamName =
  'moves' | 'projectId' | 'parentId' | 'sortKey' | 'position' | 'carriesSubtree' | 'archives' | 'unarchivedRoot';

function normaliseCover(cover: CoverImageDto): object {
  const { positionY, object_fit } = cover;
  return {
    ...normaliseImage(cover),
    ...(positionY === undefined ? {} : { positionY }),
    ...(object_fit === undefined ? {} : { object_fit }),
  };
}
