import { ArrayUnique, IsArray, IsOptional, IsString } from 'class-validator';
import { OptionalNonNull } from '../../common/patch-semantics';
import { CodePoints } from '../../common/code-points';
import { IsNumericId, IsProjectId, IsTeamId, IsUserIdSet } from './import-rules';
import { ProjectItemEntry } from './project-item-entry.dto';

export class TagEntry {
  @IsTeamId()
  team_id: string;

  @IsNumericId()
  id: string;

  /** null or absent: a workspace-wide tag. */
  @IsOptional()
  @IsProjectId()
  project_id?: string | null;

  @CodePoints(1, 255)
  name: string;

  /** Absent: made from the name. */
  @OptionalNonNull()
  @IsString()
  slug?: string;

  @OptionalNonNull()
  @IsString()
  color?: string;
}

export class CardEntry extends ProjectItemEntry {
  @OptionalNonNull()
  @IsString()
  title?: string;

  @OptionalNonNull()
  @IsUserIdSet()
  members?: string[];

  /** In the order attached. */
  @OptionalNonNull()
  @IsArray()
  @ArrayUnique({ message: '$property lists a tag twice' })
  @IsNumericId({ each: true })
  tags?: string[];
}
