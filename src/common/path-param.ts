import { ArgumentMetadata, Param, PipeTransform } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import { CommonErrors } from '../errors/common-errors';

export interface PathParamRule {
  pattern: RegExp;
  /** The longest value the pattern admits. */
  maxLength: number;
  /** What the OpenAPI document says of it. */
  description: string;
  /** Completes "<name> must ..." in the 400 INVALID_PATH_PARAMETER message. */
  mustBe: string;
  /** The value the handler gets, once it matches (ids: without leading zeros). */
  canonical?: (value: string) => string;
}

/**
 * Checks one path parameter against its pattern. Every request has one or two, so a regular
 * expression does it rather than a DTO through class-transformer and class-validator.
 */
class PathParamPipe implements PipeTransform<string, string> {
  constructor(private readonly rule: PathParamRule) {}

  transform(value: string, { data }: ArgumentMetadata): string {
    if (!this.rule.pattern.test(value)) throw CommonErrors.invalidPathParameter(`${data} must be ${this.rule.mustBe}`);
    return this.rule.canonical ? this.rule.canonical(value) : value;
  }
}

/**
 * A handler's path parameter `name`, checked by `rule` (a 400 INVALID_PATH_PARAMETER naming it when
 * it does not match) and described in the OpenAPI document. A rule without `mustBe` only documents
 * it: team_id's shape is checked earlier, by WorkspaceAccessGuard (before membership).
 */
export function PathParam(
  name: string,
  rule: Pick<PathParamRule, 'pattern' | 'maxLength' | 'description'> & Partial<PathParamRule>,
): ParameterDecorator {
  const pipes = rule.mustBe === undefined ? [] : [new PathParamPipe(rule as PathParamRule)];
  return (target, method, index) => {
    Param(name, ...pipes)(target, method, index);
    const handler = Object.getOwnPropertyDescriptor(target, method!)!;
    ApiParam({
      name,
      required: true,
      description: rule.description,
      schema: { type: 'string', pattern: rule.pattern.source, maxLength: rule.maxLength },
    })(target, method!, handler);
  };
}
