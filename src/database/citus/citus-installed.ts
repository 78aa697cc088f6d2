/** True on a Citus coordinator (the extension is installed), as an SQL condition. */
export const CITUS_INSTALLED = `EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus')`;
