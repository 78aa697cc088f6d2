import { Type } from '@nestjs/common';
import { ApiPropertyOptions, getSchemaPath } from '@nestjs/swagger';

/**
 * A field that holds an object of `model` or null. OpenAPI 3.0 ignores `nullable` beside a `$ref`
 * (it applies only where `type` is given), so null is the second branch of a oneOf, an object
 * schema that admits only null.
 */
export const nullableRef = (model: Type, description: string): ApiPropertyOptions => ({
  oneOf: [{ $ref: getSchemaPath(model) }, { type: 'object', nullable: true, enum: [null] }],
  description,
});
