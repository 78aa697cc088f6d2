/** A page as the API shows it, with what the tree's invariants need. */
export interface PageRead {
  id: string;
  title: string;
  project_id: string;
  parent_page_id: string;
  position?: number;
  archived?: object;
}

/** Everything wrong with the tree: cycles, unreachable active pages, sibling positions other than 0..n-1. */
export function treeProblems(pages: PageRead[]): string[] {
  const byId = new Map(pages.map((p) => [p.id, p]));
  const active = pages.filter((p) => !p.archived);
  const problems: string[] = [];
  for (const page of active) {
    const seen = new Set<string>();
    for (let at = page; at.parent_page_id !== '';) {
      const parent = byId.get(at.parent_page_id);
      if (!parent || parent.archived)
        problems.push(`${page.id}: ancestor ${at.parent_page_id} is ${parent ? 'archived' : 'missing'}`);
      else if (parent.project_id !== page.project_id)
        problems.push(`${page.id}: ancestor ${parent.id} is in project ${parent.project_id}`);
      if (!parent || parent.archived || parent.project_id !== page.project_id) break;
      if (seen.has(parent.id)) {
        problems.push(`${page.id}: cycle through ${parent.id}`);
        break;
      }
      seen.add(parent.id);
      at = parent;
    }
  }
  const groups = new Map<string, number[]>();
  for (const page of active) {
    const key = `${page.project_id}/${page.parent_page_id}`;
    groups.set(key, [...(groups.get(key) ?? []), page.position!]);
  }
  for (const [key, positions] of groups) {
    const sorted = [...positions].sort((a, b) => a - b);
    if (!sorted.every((p, i) => p === i)) problems.push(`siblings under ${key} have positions ${sorted.join(',')}`);
  }
  return problems;
}
