import { TagName } from '../../tags/dto/tag-fields';
import { ArrayUnique, IsArray, IsOptional, IsString } from 'class-validator';
import { OptionalNonNull } from '../../common/patch-semantics';
import { CodePoints } from '../../common/code-points';
import { INPUT_LIMITS } from '../../common/input-limits';
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

  /** Bounded as the API bounds it. */
  @TagName(true)
  name: string;

  /** Absent: made from the name. */
  @OptionalNonNull()
  @IsString()
  @CodePoints(0, INPUT_LIMITS.labelMax)
  slug?: string;

  @OptionalNonNull()
  @IsString()
  @CodePoints(0, INPUT_LIMITS.labelMax)
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
