import { ChildTableSpec, newVersions, replaceChildren, Statement, TableSpec, upsert } from './bulk-statements';
import { CardEntry, TagEntry } from './dto/card-entries.dto';
import { importStamps } from './import-actor';
import { childRows, Listed, parentRows } from './listed-document';
import { References } from './references';
import { slugify } from '../tags/tag-slug';

const TAGS: TableSpec = {
  table: 'tags',
  key: { team_id: 'text', id: 'bigint' },
  fields: { project_id: 'text', name: 'text', slug: 'text', color: 'text' },
};
const CARDS: TableSpec = {
  table: 'cards',
  key: { team_id: 'text', id: 'bigint' },
  fields: { project_id: 'text', title: 'text', owner_id: 'text' },
  stamped: true,
};
const PARENT_CARD = ['team_id', 'card_id'];
const CARD_MEMBERS: ChildTableSpec = {
  table: 'card_members',
  key: { team_id: 'text', card_id: 'bigint', user_id: 'text' },
  parent: PARENT_CARD,
};
const CARD_TAGS: ChildTableSpec = {
  table: 'card_tags',
  key: { team_id: 'text', card_id: 'bigint', tag_id: 'bigint' },
  parent: PARENT_CARD,
  ordered: true,
};

export function planTags(tags: Listed<TagEntry>[], refs: References): Statement[] {
  for (const { entry, label } of tags) {
    refs.workspace(label, entry.team_id);
    if (entry.project_id) refs.project(label, entry.team_id, entry.project_id);
  }
  const rows = tags.map(({ entry, label }) => ({
    entry: label,
    team_id: entry.team_id,
    id: entry.id,
    project_id: entry.project_id ?? null,
    name: entry.name,
    slug: entry.slug ?? slugify(entry.name),
    color: entry.color ?? '',
  }));
  return [upsert(TAGS, rows)];
}

/** Cards with their members and their tags in the order attached. */
export function planCards(cards: Listed<CardEntry>[], refs: References): Statement[] {
  for (const { entry, label } of cards) {
    refs.workspace(label, entry.team_id);
    refs.project(label, entry.team_id, entry.project_id);
    refs.member(label, entry.team_id, entry.owner_id, 'owner_id');
    for (const userId of entry.members ?? []) refs.member(label, entry.team_id, userId, 'members');
    for (const tagId of entry.tags ?? []) refs.cardTag(label, entry.team_id, entry.project_id, tagId);
  }
  const rows = cards.map(({ entry, label }) => ({
    entry: label,
    team_id: entry.team_id,
    id: entry.id,
    project_id: entry.project_id,
    title: entry.title ?? '',
    owner_id: entry.owner_id,
    ...importStamps(entry.owner_id),
  }));
  const parents = parentRows(cards, 'card_id');
  return [
    upsert(CARDS, rows),
    ...replaceChildren(
      CARD_MEMBERS,
      parents,
      childRows(
        cards,
        'card_id',
        (c) => c.members,
        (userId) => ({ user_id: userId }),
      ),
    ),
    ...replaceChildren(
      CARD_TAGS,
      parents,
      childRows(
        cards,
        'card_id',
        (c) => c.tags,
        (tagId) => ({ tag_id: tagId }),
      ),
    ),
    newVersions(CARDS, rows),
  ];
}
