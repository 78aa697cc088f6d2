import { Injectable } from '@nestjs/common';
import { Caller } from '../auth/caller';
import { fitsBigint } from '../common/numeric-id';
import { Sql } from '../database/sql';
import { entityTag } from '../safe-writes/entity-tags';
import { Versioned } from '../safe-writes/versioned';
import { WriteConditions } from '../safe-writes/write-conditions';
import { WriteSequence } from '../write-path/write-sequence';
import { assertListedAccess, limitedToListedResources } from '../workspaces/role-permissions';
import { CardErrors } from './card-errors';
import { ATTACH_TAGS, READ_CARD, REMOVE_TAG } from './card-queries';
import { AddCardTagsDto, MAX_TAGS_PER_REQUEST } from './dto/add-card-tags.dto';
import { CardDto } from './dto/card.response';

@Injectable()
export class CardsService {
  constructor(
    private readonly db: Sql,
    private readonly writes: WriteSequence,
  ) {}

  /** Guests see only cards that list them; everyone else in the workspace sees every card. */
  async get(caller: Caller, teamId: string, cardId: string): Promise<Versioned<CardDto>> {
    const key = { teamId, cardId, callerId: caller.userId };
    const [row] = fitsBigint(cardId) ? await this.db.query(READ_CARD, key) : [];
    const {
      created_by,
      updated_by,
      caller_is_member: _listed,
      version,
      ...card
    } = this.accessible(caller, cardId, row);
    return new Versioned({ ...card, user: created_by, user_updated: updated_by }, cardETag(version));
  }

  /** Attaches every tag or none, in one statement whatever the number of ids (ATTACH_TAGS). */
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

    const key = { teamId, cardId, callerId: caller.userId };
    const storable = ids.filter(fitsBigint);
    return this.writes.run({
      conditions,
      statement: ATTACH_TAGS,
      params: {
        ...key,
        actor: JSON.stringify(caller.actor),
        tagIds: storable,
        listedOnly: limitedToListedResources(caller.role),
        allStorable: storable.length === ids.length,
      },
      answer: (row) => {
        const card = this.writable(caller, cardId, row, conditions);
        const unknown = [...ids.filter((id) => !fitsBigint(id)), ...card.unknown];
        if (unknown.length > 0) throw CardErrors.tagsNotFound(sortNumerically(unknown)); // nothing was attached
        return new Versioned(undefined, cardETag(card.version));
      },
    });
  }

  /**
   * Takes one tag off a card (REMOVE_TAG): a tag of the workspace that is not on the card changes nothing,
   * an id that names no tag of the workspace is a 404, after the card's own 404 and 403.
   */
  async removeTag(
    caller: Caller,
    teamId: string,
    cardId: string,
    tagId: string,
    conditions: WriteConditions,
  ): Promise<Versioned<undefined>> {
    if (!fitsBigint(cardId)) throw CardErrors.notFound(cardId);
    const key = { teamId, cardId, callerId: caller.userId };
    return this.writes.run({
      conditions,
      statement: REMOVE_TAG,
      params: {
        ...key,
        actor: JSON.stringify(caller.actor),
        tagId: fitsBigint(tagId) ? tagId : null,
        listedOnly: limitedToListedResources(caller.role),
      },
      answer: (row) => {
        const card = this.writable(caller, cardId, row, conditions);
        if (!card.tag_exists) throw CardErrors.tagNotFound(tagId); // nothing was removed
        return new Versioned(undefined, cardETag(card.version));
      },
    });
  }

  /** The card a write call answered, when it may be written: 404, 403, then If-Match's 412 (nothing was written). */
  private writable<Row extends { caller_is_member: boolean; matched: boolean; version: string }>(
    caller: Caller,
    cardId: string,
    row: Row | undefined,
    conditions: WriteConditions,
  ): Row {
    const card = this.accessible(caller, cardId, row);
    // An answer kept before write calls has no `matched`: its write happened, so If-Match had accepted it.
    if (card.matched === false) conditions.assertMatches(cardETag(card.version));
    return card;
  }

  /** The card, when it exists and the caller may read and write it (a guest, only one that lists them). */
  private accessible<Row extends { caller_is_member: boolean }>(
    caller: Caller,
    cardId: string,
    row: Row | undefined,
  ): Row {
    if (!row) throw CardErrors.notFound(cardId);
    assertListedAccess(caller, row.caller_is_member);
    return row;
  }
}

/** A card's ETag: its version. `total_cards` of its tags counts other cards' tags and is not part of it. */
const cardETag = (version: string) => entityTag(version);

function sortNumerically(ids: string[]): string[] {
  return [...ids].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0));
}
