import { TagDto } from '../cards/dto/card.response';
import { TagRow } from './tag-queries';

/** A tag as the API shows it: its row without the version (that is its ETag). */
export function toTagView(row: TagRow): TagDto {
  return {
    id: row.id,
    team_id: row.team_id,
    project_id: row.project_id,
    name: row.name,
    slug: row.slug,
    color: row.color,
    total_cards: row.total_cards,
  };
}
