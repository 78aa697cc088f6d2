/**
 * Every error the service answers with: its HTTP status, its `sec` code and what it means.
 * Service 000 is generic, 001 note templates, 002 pages, 003 cards, 004 webhooks, 005 tags. The README and the OpenAPI
 * document list this table; a code, once published, keeps its meaning.
 */
export const CATALOGUE = {
  VALIDATION_FAILED: {
    status: 400,
    sec: 'SEC:000-00001',
    meaning: 'A body field or query value is invalid: wrong type, null where not nullable, or a limit exceeded',
  },
  UNKNOWN_FIELD: {
    status: 400,
    sec: 'SEC:000-00002',
    meaning: 'The body has a field the operation does not know (no field is silently ignored)',
  },
  MALFORMED_JSON: { status: 400, sec: 'SEC:000-00003', meaning: 'The body is not valid JSON, or not a JSON object' },
  INVALID_PATH_PARAMETER: {
    status: 400,
    sec: 'SEC:000-00004',
    meaning: 'A path parameter does not have the documented shape',
  },
  INVALID_TEAM_ID: { status: 400, sec: 'SEC:000-00005', meaning: 'team_id is not 1 to 64 letters and digits' },
  MALFORMED_REQUEST: {
    status: 400,
    sec: 'SEC:000-00006',
    meaning: 'The HTTP request itself is malformed (framing, chunk sizes, conflicting Content-Length)',
  },
  UNAUTHENTICATED: {
    status: 401,
    sec: 'SEC:000-00010',
    meaning: 'The bearer token is missing, malformed, unknown, expired or revoked',
  },
  ACCESS_DENIED: {
    status: 403,
    sec: 'SEC:000-00014',
    meaning: 'The caller is not a member of the workspace, their role may not do this, or the resource is not theirs',
  },
  ROUTE_NOT_FOUND: { status: 404, sec: 'SEC:000-00015', meaning: 'No operation exists at this method and path' },
  PAYLOAD_TOO_LARGE: { status: 413, sec: 'SEC:000-00016', meaning: 'The body is larger than 1 MiB' },
  RATE_LIMITED: {
    status: 429,
    sec: 'SEC:000-00018',
    meaning: 'Too many requests with this token; retry after the Retry-After delay',
  },
  EXPECTATION_FAILED: { status: 417, sec: 'SEC:000-00007', meaning: 'An Expect header other than 100-continue' },
  HEADERS_TOO_LARGE: {
    status: 431,
    sec: 'SEC:000-00019',
    meaning: 'The request line and headers are larger than 16 KiB',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    sec: 'SEC:000-00017',
    meaning: 'A body was sent with a content type other than application/json',
  },
  DATABASE_UNAVAILABLE: {
    status: 503,
    sec: 'SEC:000-00020',
    meaning: 'The database cannot be reached; retry after the Retry-After delay',
  },
  REQUEST_TIMEOUT: {
    status: 503,
    sec: 'SEC:000-00022',
    meaning:
      'The request did not finish in time; it may still take effect, so read before retrying, ' +
      'or retry with the same Idempotency-Key',
  },
  IDEMPOTENCY_KEY_INVALID: {
    status: 400,
    sec: 'SEC:000-00008',
    meaning: 'The Idempotency-Key header is not 1 to 255 printable ASCII characters',
  },
  PRECONDITION_FAILED: {
    status: 412,
    sec: 'SEC:000-00023',
    meaning: "If-Match names none of the resource's current ETag: it changed since it was read; nothing was changed",
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    sec: 'SEC:000-00024',
    meaning: 'This Idempotency-Key was used with another method, path or body; nothing was changed',
  },
  IDEMPOTENCY_KEY_IN_USE: {
    status: 409,
    sec: 'SEC:000-00025',
    meaning: 'A request with this Idempotency-Key is still running; retry after the Retry-After delay',
  },
  NOT_READY: {
    status: 503,
    sec: 'SEC:000-00021',
    meaning: 'The service is not ready: the database is unreachable or migrations are pending',
  },
  INVALID_CURSOR: {
    status: 400,
    sec: 'SEC:000-00026',
    meaning: 'cursor was not made by this service for this list with these filters',
  },
  UNKNOWN_QUERY_PARAMETER: {
    status: 400,
    sec: 'SEC:000-00027',
    meaning: 'The query string has a parameter the operation does not know',
  },
  INTERNAL_ERROR: {
    status: 500,
    sec: 'SEC:000-00099',
    meaning: 'An unexpected error; the details are in the server log under the error id',
  },
  NOTE_TEMPLATE_NOT_FOUND: {
    status: 404,
    sec: 'SEC:001-00001',
    meaning: 'No note template with this id exists in the workspace',
  },
  PAGE_NOT_FOUND: { status: 404, sec: 'SEC:002-00001', meaning: 'No page with this id exists in the workspace' },
  PARENT_PAGE_NOT_FOUND: {
    status: 404,
    sec: 'SEC:002-00002',
    meaning: 'parent_page_id names no page of the workspace',
  },
  PROJECT_NOT_FOUND: { status: 404, sec: 'SEC:002-00003', meaning: 'project_id names no project of the workspace' },
  PAGE_PARENT_CYCLE: {
    status: 400,
    sec: 'SEC:002-00004',
    meaning: 'The parent is the page itself or one of its subpages',
  },
  PARENT_PAGE_ARCHIVED: { status: 400, sec: 'SEC:002-00005', meaning: 'The parent page is archived' },
  PAGE_ARCHIVED: {
    status: 400,
    sec: 'SEC:002-00006',
    meaning: 'An archived page cannot be moved, except together with archived: false, nor copied',
  },
  PARENT_PROJECT_MISMATCH: {
    status: 400,
    sec: 'SEC:002-00007',
    meaning: 'parent_page_id is not a page of the project named by project_id',
  },
  PAGE_COPY_TOO_LARGE: {
    status: 400,
    sec: 'SEC:002-00008',
    meaning: 'A recursive copy would create more than 1,000 pages',
  },
  CARD_NOT_FOUND: { status: 404, sec: 'SEC:003-00001', meaning: 'No card with this id exists in the workspace' },
  TAG_NOT_FOUND: {
    status: 404,
    sec: 'SEC:003-00002',
    meaning:
      "One or more tags do not exist in the workspace or belong to another project than the card's; " +
      'the message lists them',
  },
  TAG_IDS_MISSING: { status: 400, sec: 'SEC:003-00003', meaning: 'Neither id nor ids names a tag' },
  TAG_IDS_TOO_MANY: { status: 400, sec: 'SEC:003-00004', meaning: 'More than 100 distinct tag ids in one request' },
  WEBHOOK_NOT_FOUND: { status: 404, sec: 'SEC:004-00001', meaning: 'No webhook with this id exists in the workspace' },
  WEBHOOK_EVENT_UNKNOWN: {
    status: 400,
    sec: 'SEC:004-00002',
    meaning: 'events names something that is not an event type (nor *)',
  },
  WEBHOOK_URL_REFUSED: {
    status: 400,
    sec: 'SEC:004-00003',
    meaning: 'url resolves to a loopback, private, link-local, unspecified or otherwise non-public address',
  },
  WEBHOOK_URL_UNRESOLVABLE: { status: 400, sec: 'SEC:004-00004', meaning: "url's host name could not be resolved" },
  WEBHOOK_LIMIT_REACHED: {
    status: 400,
    sec: 'SEC:004-00005',
    meaning: 'The workspace already has as many webhooks as it may have (25)',
  },
  TAG_NAME_TAKEN: {
    status: 409,
    sec: 'SEC:005-00001',
    meaning: 'Another tag of the same scope (workspace-wide, or the same project) has this name, ignoring case',
  },
  TAG_PROJECT_FIXED: {
    status: 400,
    sec: 'SEC:005-00002',
    meaning: "A tag's project_id cannot change; delete the tag and create it in the other scope",
  },
  // Service 006: public pages (GET /p/{alias_id}).
  PUBLIC_PAGE_NOT_FOUND: {
    status: 404,
    sec: 'SEC:006-00001',
    meaning: 'No page is shared under this alias (never was, no longer is, archived, deleted, or a malformed alias)',
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    sec: 'SEC:006-00002',
    meaning: 'A public page answers GET and HEAD only (see the Allow header)',
  },
} as const satisfies Record<string, { status: number; sec: string; meaning: string }>;

export type ErrorCode = keyof typeof CATALOGUE;
