/** SQL for a timestamptz column as STime: integer milliseconds since the epoch. */
export const stimeSql = (column: string) => `floor(extract(epoch FROM ${column}) * 1000)::bigint`;
