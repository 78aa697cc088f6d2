import { IsOptional, ValidateIf } from 'class-validator';

/** Absent keeps the stored value; `null` is rejected by the field's next rule. */
export const OptionalNonNull = () => ValidateIf((_, value) => value !== undefined);

/** Absent keeps the stored value; `null` clears it (the service decides what "cleared" reads as). */
export const OptionalNullable = () => IsOptional();
