import { unicode16Lowercase } from './unicode-16-lowercase';

/**
 * simple_lowercase(text): every character to its Unicode 16.0 simple lowercase, by a table of its own, so the
 * same on every PostgreSQL from 15 whatever the database's locale (lower() follows a collation's locale, and
 * pg_c_utf8's Unicode moves with the major). An all-ASCII text, most names, takes lower() under "C", which
 * maps exactly A-Z, inline; others go character by character through the table (unnest keeps the order).
 * The table's function is PL/pgSQL, which a session compiles and plans once: a SQL function's body, table
 * included, would be parsed again by every statement that calls it (some 2 ms each). One statement each: Citus
 * sends a query's whole text to its workers, and refuses several commands in one.
 */
export const SIMPLE_LOWERCASE_FUNCTIONS = [
  `
  CREATE FUNCTION simple_lowercase_by_table(s text) RETURNS text
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
  BEGIN
    RETURN array_to_string(ARRAY(
      SELECT coalesce($table$${JSON.stringify(unicode16Lowercase())}$table$::jsonb ->> c, c)
        FROM unnest(string_to_array(s, NULL)) AS c), '');
  END $fn$`,
  `
  CREATE FUNCTION simple_lowercase(s text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN CASE WHEN octet_length(s) = length(s) THEN lower(s COLLATE "C") ELSE simple_lowercase_by_table(s) END`,
];
