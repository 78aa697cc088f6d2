import { Body, Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Caller } from '../auth/caller';
import { CurrentCaller } from '../auth/current-caller.decorator';
import { ApiErrors, BODY_ERRORS, RESOURCE_ERRORS, SAFE_WRITE_ERRORS } from '../common/openapi/api-errors.decorator';
import { ApiNotModified, ApiSafeWrite, ETAG_HEADER } from '../common/openapi/api-versions.decorator';
import { Conditions, WriteConditions } from '../safe-writes/write-conditions';
import { Versioned } from '../safe-writes/versioned';
import { TagIdParam } from '../tags/tag-id.param';
import { TeamIdParam } from '../workspaces/team-id.param';
import { CardIdParam } from './card-id.param';
import { CardsService } from './cards.service';
import { AddCardTagsDto } from './dto/add-card-tags.dto';
import { CardResponse } from './dto/card.response';

@ApiTags('Cards')
@Controller('v1/:team_id/cards')
export class CardsController {
  constructor(private readonly cards: CardsService) {}

  @Get(':card_id')
  @ApiOperation({
    operationId: 'getCard',
    summary: 'Get a card with its tags in the order attached',
    description:
      'Guests see only cards that list them as a member. A workspace-wide tag has `project_id: null`. ' +
      'Send the ETag of a body you hold in If-None-Match to get 304 while it is unchanged.',
  })
  @ApiOkResponse({ type: CardResponse })
  @ApiNotModified()
  @ApiErrors(...RESOURCE_ERRORS, 'CARD_NOT_FOUND')
  async get(
    @CurrentCaller() caller: Caller,
    @TeamIdParam() teamId: string,
    @CardIdParam() cardId: string,
  ): Promise<Versioned<CardResponse>> {
    return (await this.cards.get(caller, teamId, cardId)).map((card) => ({ card }));
  }

  @Post(':card_id/tags')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'addTagsToCard',
    summary: 'Attach existing tags to a card',
    description:
      'Send `id`, `ids` or both; their union is attached, duplicates collapsed, at most 100 distinct ids. ' +
      "Every tag must be workspace-wide or of the card's project, " +
      'else 404 naming the unknown ids and nothing is attached. ' +
      'Attaching an attached tag is not an error.',
  })
  @ApiNoContentResponse({ description: 'The tags are attached' })
  @ApiSafeWrite()
  @ApiErrors(
    ...SAFE_WRITE_ERRORS,
    ...BODY_ERRORS,
    'TAG_IDS_MISSING',
    'TAG_IDS_TOO_MANY',
    ...RESOURCE_ERRORS,
    'CARD_NOT_FOUND',
    'TAG_NOT_FOUND',
  )
  async addTags(
    @CurrentCaller() caller: Caller,
    @TeamIdParam() teamId: string,
    @CardIdParam() cardId: string,
    @Body() body: AddCardTagsDto,
    @Conditions() conditions: WriteConditions,
  ): Promise<Versioned<undefined>> {
    return this.cards.addTags(caller, teamId, cardId, body, conditions);
  }

  @Delete(':card_id/tags/:tag_id')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'removeTagFromCard',
    summary: 'Take a tag off a card',
    description:
      "Answers 204 with the card's ETag. A tag of the workspace that is not on the card changes nothing (same ETag, " +
      'no event); an id that names no tag of the workspace is 404 TAG_NOT_FOUND. Guests may remove tags from a ' +
      'card that lists them, as they may attach them.',
  })
  @ApiNoContentResponse({ description: 'The tag is not on the card (any more)', headers: { ETag: ETAG_HEADER } })
  @ApiSafeWrite()
  @ApiErrors(...SAFE_WRITE_ERRORS, ...RESOURCE_ERRORS, 'CARD_NOT_FOUND', 'TAG_NOT_FOUND')
  async removeTag(
    @CurrentCaller() caller: Caller,
    @TeamIdParam() teamId: string,
    @CardIdParam() cardId: string,
    @TagIdParam() tagId: string,
    @Conditions() conditions: WriteConditions,
  ): Promise<Versioned<undefined>> {
    return this.cards.removeTag(caller, teamId, cardId, tagId, conditions);
  }
}
