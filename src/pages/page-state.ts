import { Image } from '../common/image';

/** What an update reads of a page before changing it (PAGE_STATE). */
export interface PageState {
  project_id: string;
  parent_id: string | null;
  sort_key: string | null;
  title: string;
  font: string;
  icon: Image | null;
  cover_image: Image | null;
  is_public: boolean;
  public_url: string | null;
  public_robots: string[];
  hide_table_of_contents: boolean;
  hide_subpages: boolean;
  /** Set while the page is archived: the page whose archiving took it out of the tree. */
  archive_root_id: string | null;
  /** Its parent when it was archived. */
  former_parent_id: string | null;
  caller_is_member: boolean;
}

export const isArchived = (page: PageState) => page.archive_root_id !== null;
