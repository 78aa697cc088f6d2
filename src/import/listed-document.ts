import { Row } from './bulk-statements';
import { Collection, ImportDocument } from './dto/import-document.dto';
import { ImportError } from './import-error';

/** A document entry with the label error messages use for it: `pages[3] (id "12")`. */
export interface Listed<T> {
  entry: T;
  label: string;
}

export type ListedDocument = { [C in Collection]-?: Listed<NonNullable<ImportDocument[C]>[number]>[] };

const byTeamAndId = (e: { team_id: string; id: string }): [string, string] => [`id "${e.id}"`, `${e.team_id}/${e.id}`];
const byId = (e: { id: string }): [string, string] => [`id "${e.id}"`, e.id];

/** Labels every entry; an entry listed twice (same key) is an error, since the second would silently win. */
export function listDocument(doc: ImportDocument): ListedDocument {
  return {
    workspaces: label('workspaces', doc.workspaces, byId),
    users: label('users', doc.users, byId),
    members: label('members', doc.members, (m) => [
      `team_id "${m.team_id}", user_id "${m.user_id}"`,
      `${m.team_id}/${m.user_id}`,
    ]),
    tokens: label('tokens', doc.tokens, byTeamAndId),
    projects: label('projects', doc.projects, byTeamAndId),
    note_templates: label('note_templates', doc.note_templates, byTeamAndId),
    pages: label('pages', doc.pages, byTeamAndId),
    tags: label('tags', doc.tags, byTeamAndId),
    cards: label('cards', doc.cards, byTeamAndId),
  };
}

function label<T>(
  collection: Collection,
  entries: T[] | undefined,
  identify: (entry: T) => [string, string],
): Listed<T>[] {
  const seen = new Map<string, string>();
  return (entries ?? []).map((entry, index) => {
    const [description, key] = identify(entry);
    const labelled = { entry, label: `${collection}[${index}] (${description})` };
    const first = seen.get(key);
    if (first) throw ImportError.at(labelled.label, `listed twice (also ${first})`);
    seen.set(key, `${collection}[${index}]`);
    return labelled;
  });
}

type Parent = { team_id: string; id: string };

/** One row per listed parent, naming it by `team_id` and `parentColumn` (page_id, card_id, ...). */
export function parentRows(parents: Listed<Parent>[], parentColumn: string): Row[] {
  return parents.map(({ entry, label }) => ({ entry: label, team_id: entry.team_id, [parentColumn]: entry.id }));
}

/** One row per item of a list inside each parent: a page's members, a card's tags, in the order given. */
export function childRows<P extends Parent, T>(
  parents: Listed<P>[],
  parentColumn: string,
  items: (parent: P) => T[] | undefined,
  columns: (item: T) => object,
): Row[] {
  return parents.flatMap(({ entry, label }) =>
    (items(entry) ?? []).map((item) => ({
      entry: label,
      team_id: entry.team_id,
      [parentColumn]: entry.id,
      ...columns(item),
    })),
  );
}
