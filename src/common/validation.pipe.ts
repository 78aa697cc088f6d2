import { ArgumentMetadata, Type, ValidationError, ValidationPipe } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { CommonErrors } from '../errors/common-errors';
import { describeBodyProblem, findBodyProblem } from './body-inspection';
import { DomainError } from '../errors/domain-error';
import { INPUT_LIMITS } from './input-limits';

/**
 * Strict validation for bodies: unknown fields are rejected, values are transformed into the DTO
 * classes, and the first failure becomes one message naming its field. (Path parameters are checked
 * by their own pipes: common/path-param.ts.)
 */
export class StrictValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      transform: true,
      transformOptions: { enableImplicitConversion: false },
      validationError: { target: false, value: false },
      stopAtFirstError: true,
      exceptionFactory: (errors) => fromValidationErrors(errors),
    });
  }

  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // What ValidationPipe returns for them, without its steps: every path parameter is a string
    // (String(value) is itself), and custom decorators' values are not validated.
    if (metadata.type === 'param' || metadata.type === 'custom') return Promise.resolve(value);
    return this.transformChecked(value, metadata);
  }

  private async transformChecked(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body') value = requireObjectBody(value);
    if (metadata.type === 'query' && metadata.metatype) refuseUnknownParameters(value, metadata.metatype);
    return super.transform(value, metadata);
  }
}

/**
 * No body means "change nothing"; a body that is not an object (an array, null) is malformed; and
 * what class-validator cannot be trusted with is refused before it sees the body.
 */
function requireObjectBody(value: unknown): object {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw CommonErrors.notAnObject();
  const problem = findBodyProblem(value, { maxItems: INPUT_LIMITS.listItemsMax });
  if (problem?.kind === 'prototype-key') throw CommonErrors.unknownField(problem.path);
  if (problem) throw CommonErrors.validation(describeBodyProblem(problem));
  return value;
}

/** A query string names only the parameters its DTO declares; a typo is an error, as in a body. */
function refuseUnknownParameters(query: unknown, dto: Type): void {
  const declared = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
  const known = new Set(declared.map((rule) => rule.propertyName));
  const unknown = Object.keys(query ?? {}).find((name) => !known.has(name));
  if (unknown !== undefined) throw CommonErrors.unknownQueryParameter(unknown);
}

export function fromValidationErrors(errors: ValidationError[], parentPath = ''): DomainError {
  const first = errors[0];
  const path = parentPath
    ? `${parentPath}${/^\d+$/.test(first.property) ? `[${first.property}]` : `.${first.property}`}`
    : first.property;
  if (!first.constraints && first.children?.length) return fromValidationErrors(first.children, path);
  const [rule, message] = Object.entries(first.constraints ?? { invalid: `${first.property} is invalid` })[0];
  if (rule === 'whitelistValidation') return CommonErrors.unknownField(path);
  // class-validator messages start with the property name; put the full path in its place.
  const named = message.startsWith(first.property)
    ? `${path}${message.slice(first.property.length)}`
    : `${path}: ${message}`;
  return CommonErrors.validation(named);
}
