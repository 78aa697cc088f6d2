import Ajv from 'ajv';
import { INPUT_LIMITS } from '../../src/common/input-limits';
import { CATALOGUE } from '../../src/errors/catalogue';
import { createTestApp, TestApp } from '../support/test-app';

interface Operation {
  security?: Array<Record<string, string[]>>;
  requestBody?: { required?: boolean };
  responses: Record<string, { headers?: Record<string, { schema?: object }> }>;
}
interface Document {
  info: { version: string; description: string };
  security?: Array<Record<string, string[]>>;
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, { properties?: object; additionalProperties?: unknown }>;
    securitySchemes: Record<string, Record<string, string>>;
  };
}

/** Every route the app serves, as the document names it. */
/** The operations whose body is required: the creations. Every update's is optional (empty: no change). */
const CREATIONS = [
  'post /v1/{team_id}/webhooks',
  'post /v1/{team_id}/pages',
  'post /v1/{team_id}/notes/templates',
  'post /v1/{team_id}/tags',
];

const ROUTES = [
  'get /health/live',
  'get /health/ready',
  'get /v1/{team_id}/notes/templates/{template_id}',
  'patch /v1/{team_id}/notes/templates/{template_id}',
  'get /v1/{team_id}/cards/{card_id}',
  'post /v1/{team_id}/cards/{card_id}/tags',
  'get /v1/{team_id}/pages',
  'get /v1/{team_id}/pages/{page_id}',
  'patch /v1/{team_id}/pages/{page_id}',
  'put /v1/{team_id}/pages/{page_id}/archive',
  'get /v1/{team_id}/notes/templates',
  'post /v1/{team_id}/notes/templates',
  'delete /v1/{team_id}/notes/templates/{template_id}',
  'post /v1/{team_id}/pages',
  'post /v1/{team_id}/pages/{page_id}/copy',
  'delete /v1/{team_id}/pages/{page_id}',
  'delete /v1/{team_id}/cards/{card_id}/tags/{tag_id}',
  'get /v1/{team_id}/tags',
  'post /v1/{team_id}/tags',
  'patch /v1/{team_id}/tags/{tag_id}',
  'delete /v1/{team_id}/tags/{tag_id}',
  'post /v1/{team_id}/webhooks',
  'get /v1/{team_id}/webhooks',
  'get /v1/{team_id}/webhooks/{webhook_id}',
  'delete /v1/{team_id}/webhooks/{webhook_id}',
  'get /v1/{team_id}/webhooks/{webhook_id}/deliveries',
  'get /p/{alias_id}',
];

/**
 * The routes Express actually serves, as method and OpenAPI path: ours, not Swagger's own /docs and
 * /openapi.*, nor the catch-all that answers ROUTE_NOT_FOUND.
 */
function servedRoutes(t: TestApp): string[] {
  const router = (
    t.app.getHttpAdapter().getInstance() as {
      router: { stack: Array<{ route?: { path: string; methods: Record<string, boolean> } }> };
    }
  ).router;
  return (
    router.stack
      .flatMap((layer) =>
        layer.route
          ? Object.keys(layer.route.methods).map((m) => `${m} ${layer.route!.path.replace(/:(\w+)/g, '{$1}')}`)
          : [],
      )
      .filter((route) => !/ \/(docs|openapi)/.test(route) && !route.endsWith(' /{*path}'))
      // Nor the public page's catch-all for other methods (405); its GET layer is the page's own, twice.
      .filter((route, i, all) => !route.endsWith(' /p/{alias_id}') || all.indexOf(route) === i)
      .filter((route) => !route.endsWith(' /p/{alias_id}') || route.startsWith('get '))
  );
}

describe('the OpenAPI document', () => {
  let t: TestApp;
  let doc: Document;
  let operations: Array<[string, Operation]>;
  beforeAll(async () => {
    t = await createTestApp();
    doc = (await t.http.get('/openapi.json').expect(200)).body;
    operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => [`${method} ${path}`, op] as [string, Operation]),
    );
  });
  afterAll(() => t.close());
  const v1 = () => operations.filter(([route]) => route.includes(' /v1/'));

  it('has the interface version', () => {
    expect(doc.info.version).toBe('0.1');
  });

  it('documents every route the app serves, and nothing else', () => {
    expect(operations.map(([route]) => route).sort()).toEqual([...ROUTES].sort());
    expect(servedRoutes(t).sort()).toEqual([...ROUTES].sort());
  });

  it('needs no token for the health checks and a bearer token for every /v1 operation', () => {
    expect(doc.security).toEqual([{ bearer: [] }]);
    for (const [route, op] of operations) {
      if (route.includes(' /health/') || route.includes(' /p/'))
        expect({ route, security: op.security }).toEqual({ route, security: [] });
      else expect({ route, security: op.security ?? doc.security }).toEqual({ route, security: [{ bearer: [] }] });
    }
  });

  it('documents 401 with WWW-Authenticate, 403, 404, 500 and 503 with Retry-After on every /v1 operation', () => {
    expect(v1()).toHaveLength(ROUTES.filter((route) => route.includes(' /v1/')).length);
    for (const [route, op] of v1()) {
      // 404 where the path names something besides the workspace (the webhooks collection names nothing).
      const namesOne = /\/\{(?!team_id\})\w+\}/.test(route);
      expect({ route, statuses: Object.keys(op.responses) }).toEqual({
        route,
        statuses: expect.arrayContaining(['401', '403', ...(namesOne ? ['404'] : []), '500', '503']),
      });
      expect({ route, header: op.responses['401'].headers?.['WWW-Authenticate']?.schema }).toEqual({
        route,
        header: { type: 'string', example: expect.any(String) },
      });
      expect({ route, header: op.responses['503'].headers?.['Retry-After']?.schema }).toEqual({
        route,
        header: { type: 'integer', minimum: 0 },
      });
    }
  });

  it('documents 503 with Retry-After on the readiness check, which has no 401', () => {
    const ready = doc.paths['/health/ready'].get;
    expect(ready.responses['503'].headers?.['Retry-After']).toBeDefined();
    expect(ready.responses['401']).toBeUndefined();
  });

  it('marks every update body as optional, since an empty one changes nothing; a webhook needs its body', () => {
    const withBody = operations.filter(([, op]) => op.requestBody);
    expect(withBody.map(([route]) => route).sort()).toEqual([
      'patch /v1/{team_id}/notes/templates/{template_id}',
      'patch /v1/{team_id}/pages/{page_id}',
      'patch /v1/{team_id}/tags/{tag_id}',
      'post /v1/{team_id}/cards/{card_id}/tags',
      'post /v1/{team_id}/notes/templates',
      'post /v1/{team_id}/pages',
      'post /v1/{team_id}/pages/{page_id}/copy',
      'post /v1/{team_id}/tags',
      'post /v1/{team_id}/webhooks',
      'put /v1/{team_id}/pages/{page_id}/archive',
    ]);
    for (const [route, op] of withBody)
      expect({ route, required: op.requestBody!.required }).toEqual({
        route,
        required: CREATIONS.includes(route),
      });
  });

  it('closes every component schema that has properties', () => {
    const open = Object.entries(doc.components.schemas).filter(
      ([, s]) => s.properties && s.additionalProperties !== false,
    );
    expect(open.map(([name]) => name)).toEqual([]);
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['UpdatePageDto', 'AddCardTagsDto', 'ImageDto', 'ErrorBodyDto']),
    );
  });

  it('declares the limits the server enforces', () => {
    const { ImageDto, AddCardTagsDto } = doc.components.schemas as Record<
      string,
      { properties: Record<string, Record<string, unknown>> }
    >;
    expect(ImageDto.properties.src.maxLength).toBe(INPUT_LIMITS.imageSrcMax);
    for (const field of ['id', 'blurhash', 'color', 'emoji'])
      expect({ field, maxLength: ImageDto.properties[field].maxLength }).toEqual({ field, maxLength: 255 });
    expect(AddCardTagsDto.properties.ids.items).toEqual({ type: 'string', pattern: '^[0-9]{1,19}$', maxLength: 19 });
    expect(AddCardTagsDto.properties.ids.maxItems).toBe(INPUT_LIMITS.tagIdsRawMax);
    expect(AddCardTagsDto.properties.ids.description).toMatch(/at most 100 distinct ids/);
  });

  it('admits null where the service does: icon and cover_image of a page update', () => {
    const ajv = new Ajv({ strict: false, validateFormats: false });
    ajv.addSchema({ $id: 'doc', components: doc.components });
    const accepts = (body: object) => ajv.validate({ $ref: 'doc#/components/schemas/UpdatePageDto' }, body);
    expect(accepts({ icon: null, cover_image: null })).toBe(true);
    expect(
      accepts({ icon: { type: 'emoji', src: '📄' }, cover_image: { type: 'image', src: 'https://e.com/c.png' } }),
    ).toBe(true);
    expect(accepts({ icon: 'x' })).toBe(false);
  });

  it("documents the archive operation's ignored body", () => {
    const body = doc.paths['/v1/{team_id}/pages/{page_id}/archive'].put.requestBody as {
      description?: string;
      content: Record<string, unknown>;
    };
    expect(Object.keys(body.content)).toEqual(['*/*']);
    expect(body.description).toMatch(/ignored/i);
  });

  it('describes the bearer tokens as opaque, not JWTs', () => {
    const scheme = doc.components.securitySchemes.bearer;
    expect(scheme).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
    expect(scheme.bearerFormat).toBeUndefined();
    expect(scheme.description).toMatch(/opaque/);
  });

  // Webhooks are subscriptions, not content: they carry no version (decisions.md, Versions: templates, pages, cards).
  const versioned = (route: string) => !route.includes('/webhooks');
  // A list answers many resources, each with its own version: no ETag names them all, no 304.
  const isList = (route: string) => /^get .*\/(templates|pages|tags)$/.test(route);
  // A creation writes no existing resource: nothing for If-Match to compare (its answer has an ETag all the same).
  const ofExisting = (route: string) => /\/\{(?!team_id\})\w+\}/.test(route);

  it('describes versions: ETag on every 2xx under /v1, If-None-Match and 304 on every GET', () => {
    for (const [route, op] of operations) {
      // A delete leaves no version to name.
      if (!/^\w+ \/v1\//.test(route) || !versioned(route) || route.startsWith('delete ') || isList(route)) continue;
      for (const [status, response] of Object.entries(op.responses).filter(([status]) => /^2/.test(status))) {
        expect({ route, status, etag: !!response.headers?.ETag }).toEqual({ route, status, etag: true });
      }
      if (!route.startsWith('get /v1/')) continue;
      const parameters = (op as { parameters?: Array<{ in: string; name: string }> }).parameters ?? [];
      expect({ route, ifNoneMatch: parameters.some((p) => p.in === 'header' && p.name === 'If-None-Match') }).toEqual({
        route,
        ifNoneMatch: true,
      });
      expect({ route, notModified: !!op.responses['304'] }).toEqual({ route, notModified: true });
    }
  });

  it('describes safe writes: Idempotency-Key (409, 422) on every write, If-Match (412) on versioned resources', () => {
    for (const [route, op] of operations) {
      if (!/^(patch|put|post|delete) \/v1\//.test(route)) continue;
      const parameters = (op as { parameters?: Array<{ in: string; name: string }> }).parameters ?? [];
      const headers = parameters.filter((p) => p.in === 'header').map((p) => p.name);
      const [wanted, statuses] =
        versioned(route) && ofExisting(route)
          ? [
              ['If-Match', 'Idempotency-Key'],
              ['409', '412', '422'],
            ]
          : [['Idempotency-Key'], ['409', '422']];
      expect({ route, headers }).toEqual({ route, headers: expect.arrayContaining(wanted) });
      expect({ route, statuses: Object.keys(op.responses) }).toEqual({
        route,
        statuses: expect.arrayContaining(statuses),
      });
    }
  });

  it('lists the whole error catalogue in its description', () => {
    for (const [code, { sec, status }] of Object.entries(CATALOGUE)) {
      expect(doc.info.description).toContain(`| \`${sec}\` | ${status} | ${code} |`);
    }
  });

  it('serves a browsable reference at /docs without a token', async () => {
    const res = await t.http.get('/docs').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toMatch(/swagger-ui/i);
  });
});
