/** `EXECUTE` of a prepared statement with every parameter NULL: enough for PostgreSQL to plan it, or EXPLAIN it. */
export function executeWithNulls(prepared: string, parameters: readonly string[]): string {
  const nulls = parameters.map(() => 'NULL').join(', ');
  return `EXECUTE ${prepared}${nulls ? `(${nulls})` : ''}`;
}
