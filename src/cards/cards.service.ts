import { Injectable } from '@nestjs/common';
import { Caller } from '../auth/caller';
import { fitsBigint } from '../common/numeric-id';
import { Sql } from '../database/sql';
import { entityTag } from '../safe-writes/entity-tags';
import { Versioned } from '../safe-writes/versioned';
import { WriteConditions } from '../safe-writes/write-conditions';
import { Announcer } from '../webhooks/announcer';
import { assertListedAccess, limitedToListedResources } from '../workspaces/role-permissions';
import { CardErrors } from './card-errors';
import { ATTACH_TAGS, AttachRow, LOCK_READ_CARD, READ_CARD } from './card-queries';
import { AddCardTagsDto, MAX_TAGS_PER_REQUEST } from './dto/add-card-tags.dto';
import { CardDto } from './dto/card.response';

@Injectable()
export class CardsService {
  constructor(
    private readonly db: Sql,
    private readonly announcer: Announcer,
  ) {}

  /** Guests see only cards that list them; everyone else in the workspace sees every card. */
  async get(caller: Caller, teamId: string, cardId: string): Promise<Versioned<CardDto>> {
    const [row] = fitsBigint(cardId) ? await this.db.query(READ_CARD, [teamId, cardId, caller.userId]) : [];
    if (!row) throw CardErrors.notFound(cardId);
    const { created_by, updated_by, caller_is_member, version, ...card } = row;
    assertListedAccess(caller, caller_is_member);
    return new Versioned({ ...card, user: created_by, user_updated: updated_by }, cardETag(version));
  }

  /**
   * Attaches every tag or none, in one statement whatever the number of ids (ATTACH_TAGS). With
   * If-Match, the card is locked and its version compared first, in the attach's transaction.
   */
  async addTags(
    caller: Caller,
    teamId: string,
    cardId: string,
    body: AddCardTagsDto,
    conditions: WriteConditions,
  ): Promise<Versioned<undefined>> {
    // The DTO spells ids canonically ("01" is "1"), so a Set collapses the ones that name one tag.
    const ids = [...new Set([...(body.id === undefined ? [] : [body.id]), ...(body.ids ?? [])])];
    if (ids.length === 0) throw CardErrors.noTagIds();
    if (ids.length > MAX_TAGS_PER_REQUEST) throw CardErrors.tooManyTagIds(ids.length, MAX_TAGS_PER_REQUEST);
    if (!fitsBigint(cardId)) throw CardErrors.notFound(cardId);

    const storable = ids.filter(fitsBigint);
    const params = [
      teamId,
      cardId,
      caller.userId,
      storable,
      limitedToListedResources(caller.role),
      storable.length === ids.length,
      JSON.stringify(caller.actor),
      ...conditions.key,
    ] as const;
    const card =
      conditions.kept<AttachRow>() ??
      (conditions.ifMatch
        ? await this.db.transaction(async (tx) => {
            const [current] = await tx.query(LOCK_READ_CARD, [teamId, cardId, caller.userId]);
            if (!current) throw CardErrors.notFound(cardId);
            assertListedAccess(caller, current.caller_is_member);
            conditions.assertMatches(cardETag(current.version));
            return (await this.announcer.write(tx, ATTACH_TAGS, teamId, [...params], conditions.keyed))[0];
          })
        : (await this.announcer.write(this.db, ATTACH_TAGS, teamId, [...params], conditions.keyed))[0]);
    if (!card) throw CardErrors.notFound(cardId);
    assertListedAccess(caller, card.caller_is_member);
    const unknown = [...ids.filter((id) => !fitsBigint(id)), ...card.unknown];
    if (unknown.length > 0) throw CardErrors.tagsNotFound(sortNumerically(unknown)); // nothing was attached
    conditions.assertKeyHeld(card);
    return new Versioned(undefined, cardETag(card.version));
  }
}

/** A card's ETag: its version. `total_cards` of its tags counts other cards' tags and is not part of it. */
const cardETag = (version: string) => entityTag(version);

function sortNumerically(ids: string[]): string[] {
  return [...ids].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0));
}
