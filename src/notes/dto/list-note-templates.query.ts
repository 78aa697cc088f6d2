import { QueryCursor, QueryLimit } from '../../common/list-query';

export const TEMPLATES_PER_ANSWER_MAX = 1000;

/** GET /notes/templates: one answer of the templates the caller may read. */
export class ListNoteTemplatesQuery {
  @QueryLimit(TEMPLATES_PER_ANSWER_MAX, TEMPLATES_PER_ANSWER_MAX)
  limit?: number;

  @QueryCursor()
  cursor?: string;
}
