import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ActorDto } from '../../common/dto/actor.dto';
import { ImageDto } from '../../common/dto/image.dto';
import { PAGE_FONTS } from '../page-options';
import { CoverImageDto } from './cover-image.dto';
import { PublicSettingsDto } from './public-settings.dto';

const STIME = { type: 'integer', format: 'int64', description: 'STime (ms)' } as const;

export class PageMemberDto {
  @ApiProperty()
  user_id: string;

  @ApiProperty(STIME)
  assigned_date: number;

  @ApiProperty()
  role: string;
}

export class PageArchiveDto {
  @ApiProperty({ description: 'Who archived it' })
  user_id: string;

  @ApiProperty(STIME)
  time_archived: number;

  @ApiProperty({ description: 'Its parent when it was archived ("" at the root)' })
  parent_page_id: string;
}

export class CollaborationDto {
  @ApiProperty({
    description: 'Signed token for real-time collaboration on this page, for this caller; expires after an hour',
  })
  token: string;
}

export class PageDto {
  @ApiProperty({ description: 'Numerical string' })
  id: string;

  @ApiProperty({ format: 'uuid' })
  alias_id: string;

  @ApiProperty()
  title: string;

  @ApiProperty({ enum: PAGE_FONTS })
  font: string;

  @ApiPropertyOptional({ type: ImageDto, description: 'Absent when the page has no icon' })
  icon?: ImageDto;

  @ApiProperty()
  content: string;

  @ApiProperty({ type: 'integer' })
  schema: number;

  @ApiProperty({ type: CollaborationDto })
  collaboration: CollaborationDto;

  @ApiProperty()
  project_id: string;

  @ApiProperty()
  standalone: boolean;

  @ApiPropertyOptional({ type: CoverImageDto, description: 'Absent when the page has no cover' })
  cover_image?: CoverImageDto;

  @ApiProperty({ description: 'The owner' })
  user_id: string;

  @ApiProperty({ description: 'The last updater ("" for a built-in or system change)' })
  user_id_updated: string;

  @ApiProperty({ type: ActorDto })
  user: ActorDto;

  @ApiProperty({ type: ActorDto })
  user_updated: ActorDto;

  @ApiProperty()
  team_id: string;

  @ApiProperty(STIME)
  time_created: number;

  @ApiProperty(STIME)
  time_updated: number;

  @ApiProperty({ type: [PageMemberDto] })
  members: PageMemberDto[];

  @ApiProperty({ description: 'Whether the caller bookmarked it (same as is_bookmarked)' })
  bookmarked: boolean;

  @ApiPropertyOptional({ type: PageArchiveDto, description: 'Present only when the page is archived' })
  archived?: PageArchiveDto;

  @ApiProperty()
  is_public: boolean;

  @ApiProperty({ type: PublicSettingsDto })
  public_settings: PublicSettingsDto;

  @ApiProperty({ type: 'integer' })
  total_comments: number;

  @ApiProperty({ description: 'Whether the caller watches it' })
  is_watching: boolean;

  @ApiProperty({ description: 'Whether the caller bookmarked it' })
  is_bookmarked: boolean;

  @ApiProperty()
  hide_table_of_contents: boolean;

  @ApiProperty()
  hide_subpages: boolean;

  @ApiProperty({
    description: 'The parent page ("" at the root of the project); for an archived page, its parent when archived',
  })
  parent_page_id: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    description: '0-based index among the active siblings; absent while archived',
  })
  position?: number;
}

export class PageResponse {
  @ApiProperty({ type: PageDto })
  page: PageDto;
}
