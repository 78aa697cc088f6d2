import { PageEntry } from './dto/page-entry.dto';
import { StoredPage } from './existing-state';
import { ImportError } from './import-error';
import { Listed } from './listed-document';
import { siblingKeys } from './sibling-keys';

export interface ArchiveChange {
  pageId: string;
  rootId: string;
  formerParentId: string | null;
  archivedBy: string;
}

/** Where the import puts each page of one workspace, and what it does to the pages it does not list. */
export interface PagePlacement {
  /** The listed pages' tree columns: parent_id and sort_key are null for the root of an archived subtree. */
  placed: Map<string, { projectId: string; parentId: string | null; sortKey: string | null }>;
  /** Unlisted pages that follow a listed ancestor into another project. */
  projectMoves: Array<{ id: string; projectId: string }>;
  /** page_archives rows to create or change. */
  archives: ArchiveChange[];
  /** Pages whose page_archives row goes: they are active again. */
  unarchived: string[];
}

/**
 * The workspace's page tree as it will be after the import: listed pages as the document says,
 * the others as stored, except that a subtree follows its root into another project and into or
 * out of the archive, so that the tree stays valid.
 */
export function planPagePlacement(teamId: string, stored: StoredPage[], listed: Listed<PageEntry>[]): PagePlacement {
  return new FinalPageTree(teamId, stored, listed).plan();
}

class FinalPageTree {
  private readonly stored = new Map<string, StoredPage>();
  private readonly listed = new Map<string, Listed<PageEntry> & { index: number }>();
  private readonly projects = new Map<string, string>();
  private readonly archiveRoots = new Map<string, string | null>();

  constructor(
    private readonly teamId: string,
    stored: StoredPage[],
    listed: Listed<PageEntry>[],
  ) {
    for (const page of stored) this.stored.set(page.id, page);
    listed.forEach((page, index) => this.listed.set(page.entry.id, { ...page, index }));
    // In passes: every parent exists before any walk up the tree, and no walk can loop once cycles are ruled out.
    for (const page of listed) this.checkParentExists(page.entry, page.label);
    for (const page of listed) this.checkNoCycle(page.entry, page.label);
    for (const page of listed) this.checkParentFits(page.entry, page.label);
  }

  plan(): PagePlacement {
    const ids = [...new Set([...this.stored.keys(), ...this.listed.keys()])];
    const archives: ArchiveChange[] = [];
    const unarchived: string[] = [];
    for (const id of ids) {
      const root = this.archiveRootOf(id);
      const archive = this.stored.get(id)?.archive;
      if (root === null) {
        if (archive) unarchived.push(id);
        continue;
      }
      const formerParentId = root === id && !this.listed.has(id) ? archive!.formerParentId : this.parentOf(id);
      if (archive?.rootId !== root || archive.formerParentId !== formerParentId) {
        archives.push({ pageId: id, rootId: root, formerParentId, archivedBy: this.archivedBy(id) });
      }
    }
    const projectMoves = ids
      .filter((id) => !this.listed.has(id) && this.projectOf(id) !== this.stored.get(id)!.projectId)
      .map((id) => ({ id, projectId: this.projectOf(id) }));
    return { placed: this.placeListed(ids), projectMoves, archives, unarchived };
  }

  /** The parent must be a page of the workspace, stored or listed earlier. */
  private checkParentExists(page: PageEntry, label: string): void {
    const parent = page.parent_page_id || null;
    if (parent === null || this.stored.has(parent)) return;
    const listedParent = this.listed.get(parent);
    if (!listedParent)
      throw ImportError.at(label, `parent_page_id "${parent}" is not a page of workspace ${this.teamId}`);
    if (listedParent.index > this.listed.get(page.id)!.index) {
      throw ImportError.at(label, `parent_page_id "${parent}" is listed after this page; list parents first`);
    }
  }

  private checkNoCycle(page: PageEntry, label: string): void {
    const limit = this.listed.size + this.stored.size;
    for (let above = page.parent_page_id || null, steps = 0; above !== null && steps <= limit; steps++) {
      if (above === page.id)
        throw ImportError.at(label, `parent_page_id "${page.parent_page_id}" is this page or one of its subpages`);
      above = this.parentOf(above);
    }
  }

  /** Same project as the parent, and not active below an archived parent. */
  private checkParentFits(page: PageEntry, label: string): void {
    const parent = page.parent_page_id || null;
    if (parent === null) return;
    const parentProject = this.projectOf(parent);
    if (parentProject !== page.project_id) {
      throw ImportError.at(
        label,
        `project_id "${page.project_id}" differs from project "${parentProject}" of its parent page "${parent}"`,
      );
    }
    if (!page.archived && this.archiveRootOf(parent) !== null) {
      throw ImportError.at(label, `parent page "${parent}" is archived, so this page must be archived too`);
    }
  }

  /** The page above this one; for a listed archive root, the page it was archived from. */
  private parentOf(id: string): string | null {
    const listed = this.listed.get(id);
    return listed ? listed.entry.parent_page_id || null : this.stored.get(id)!.parentId;
  }

  private projectOf(id: string): string {
    let project = this.projects.get(id);
    if (project === undefined) {
      const parent = this.parentOf(id);
      project =
        this.listed.get(id)?.entry.project_id ?? (parent ? this.projectOf(parent) : this.stored.get(id)!.projectId);
      this.projects.set(id, project);
    }
    return project;
  }

  /** The root of the archived subtree the page will be in, or null when it will be active. */
  private archiveRootOf(id: string): string | null {
    if (this.archiveRoots.has(id)) return this.archiveRoots.get(id)!;
    const parent = this.parentOf(id);
    const parentRoot = parent ? this.archiveRootOf(parent) : null;
    const listed = this.listed.get(id);
    // An unlisted page archived below an ancestor that comes back comes back with it.
    const root = listed
      ? listed.entry.archived
        ? (parentRoot ?? id)
        : null
      : (parentRoot ?? (this.stored.get(id)!.archive?.rootId === id ? id : null));
    this.archiveRoots.set(id, root);
    return root;
  }

  private archivedBy(id: string): string {
    const root = this.archiveRootOf(id)!;
    return this.stored.get(id)?.archive?.archivedBy ?? this.listed.get(id)?.entry.owner_id ?? this.archivedBy(root);
  }

  /** The parent_id column: none for the root of an archived subtree, which leaves the tree. */
  private treeParentOf(id: string): string | null {
    return this.archiveRootOf(id) === id ? null : this.parentOf(id);
  }

  private placeListed(ids: string[]): PagePlacement['placed'] {
    const groupOf = (id: string) => JSON.stringify([this.projectOf(id), this.treeParentOf(id)]);
    const groups = new Map<string, { listed: string[]; others: string[] }>();
    const group = (key: string) => groups.get(key) ?? groups.set(key, { listed: [], others: [] }).get(key)!;
    for (const id of ids) {
      if (this.archiveRootOf(id) === id) continue;
      const sortKey = this.stored.get(id)?.sortKey;
      if (this.listed.has(id)) group(groupOf(id)).listed.push(id);
      else if (sortKey) group(groupOf(id)).others.push(sortKey);
    }
    const placed: PagePlacement['placed'] = new Map();
    for (const { listed, others } of groups.values()) {
      listed.sort((a, b) => this.listed.get(a)!.index - this.listed.get(b)!.index);
      const keys = siblingKeys(listed, (id) => this.currentKey(id), others);
      for (const id of listed)
        placed.set(id, { projectId: this.projectOf(id), parentId: this.treeParentOf(id), sortKey: keys.get(id)! });
    }
    for (const id of this.listed.keys()) {
      if (!placed.has(id)) placed.set(id, { projectId: this.projectOf(id), parentId: null, sortKey: null });
    }
    return placed;
  }

  /** The stored sort key, if the page already sits where it is going. */
  private currentKey(id: string): string | null {
    const stored = this.stored.get(id);
    const same = stored && stored.parentId === this.treeParentOf(id) && stored.projectId === this.projectOf(id);
    return same ? stored.sortKey : null;
  }
}
