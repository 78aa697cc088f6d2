import { Injectable } from '@nestjs/common';
import { Caller } from '../auth/caller';
import { fitsBigint } from '../common/numeric-id';
import { Sql } from '../database/sql';
import { assertListedAccess, limitedToListedResources } from '../workspaces/role-permissions';
import { CardErrors } from './card-errors';
import { ATTACH_TAGS, READ_CARD } from './card-queries';
import { AddCardTagsDto, MAX_TAGS_PER_REQUEST } from './dto/add-card-tags.dto';
import { CardDto } from './dto/card.response';

@Injectable()
export class CardsService {
  constructor(private readonly db: Sql) {}

  /** Guests see only cards that list them; everyone else in the workspace sees every card. */
  async get(caller: Caller, teamId: string, cardId: string): Promise<CardDto> {
    const [row] = fitsBigint(cardId) ? await this.db.query(READ_CARD, [teamId, cardId, caller.userId]) : [];
    if (!row) throw CardErrors.notFound(cardId);
    const { created_by, updated_by, caller_is_member, ...card } = row;
    assertListedAccess(caller, caller_is_member);
    return { ...card, user: created_by, user_updated: updated_by };
  }

  /** Attaches every tag or none, in one statement whatever the number of ids (ATTACH_TAGS). */
  async addTags(caller: Caller, teamId: string, cardId: string, body: AddCardTagsDto): Promise<void> {
    // The DTO spells ids canonically ("01" is "1"), so a Set collapses the ones that name one tag.
    const ids = [...new Set([...(body.id === undefined ? [] : [body.id]), ...(body.ids ?? [])])];
    if (ids.length === 0) throw CardErrors.noTagIds();
    if (ids.length > MAX_TAGS_PER_REQUEST) throw CardErrors.tooManyTagIds(ids.length, MAX_TAGS_PER_REQUEST);
    if (!fitsBigint(cardId)) throw CardErrors.notFound(cardId);

    const storable = ids.filter(fitsBigint);
    const listedOnly = limitedToListedResources(caller.role);
    const [card] = await this.db.query(ATTACH_TAGS, [
      teamId,
      cardId,
      caller.userId,
      storable,
      listedOnly,
      storable.length === ids.length,
      JSON.stringify(caller.actor),
    ]);
    if (!card) throw CardErrors.notFound(cardId);
    assertListedAccess(caller, card.caller_is_member);
    const unknown = [...ids.filter((id) => !fitsBigint(id)), ...card.unknown];
    if (unknown.length > 0) throw CardErrors.tagsNotFound(sortNumerically(unknown)); // nothing was attached
  }
}

function sortNumerically(ids: string[]): string[] {
  return [...ids].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0));
}
