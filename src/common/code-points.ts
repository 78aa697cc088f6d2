import { ValidateBy, ValidationOptions } from 'class-validator';

/**
 * A string length as PostgreSQL's char_length counts it: Unicode code points (class-validator's
 * Length skips variation selectors, so a value it accepts could still break a CHECK constraint).
 */
export const CodePoints = (min: number, max: number, options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'codePoints',
      constraints: [min, max],
      validator: {
        validate: (value: unknown) => typeof value === 'string' && [...value].length >= min && [...value].length <= max,
        defaultMessage: () =>
          min === 0
            ? `$property must be at most ${max} characters`
            : `$property must be a string of ${min} to ${max} characters`,
      },
    },
    options,
  );
