/**
 * A text ignoring case, compared and ordered by code point: the same on every PostgreSQL from 15 whatever
 * its locale (simple_lowercase, migration 0012). A tag's is stored as its name_key.
 */
export const CASE_KEY = (text: string) => `simple_lowercase(${text}) COLLATE "C"`;
