import { INestApplication } from '@nestjs/common';
import { MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';
import { ApiExtension, DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { IS_PUBLIC } from '../../auth/public.decorator';
import { AppConfig } from '../../config/app-config';
import { CATALOGUE } from '../../errors/catalogue';
import { ETAG_HEADER, REPLAYED_HEADER } from './api-versions.decorator';

const DESCRIPTION = `
Workspace Content API: update note templates and pages, and tag cards, in team workspaces.

* Every \`/v1\` route needs \`Authorization: Bearer <token>\`; a token belongs to one user in one workspace.
  The health checks need none.
* **STime** is an integer count of **milliseconds** since the Unix epoch in every field (the
  interface declares seconds, but every published example of the real service has 13 digits).
* Every non-2xx response has the body \`{"error": {id, code, sec, message, date}}\`; \`code\` is the
  HTTP status and \`id\` appears in the server log line of the request.
* Request bodies are strict: an unknown field is a 400. Bodies are JSON only (415 otherwise), at most 1 MiB (413).
  A body is never required on an update: an empty one changes nothing. Creating a webhook needs one.
* An update that changes nothing leaves \`time_updated\` and \`user_updated\` as they were.
* Every request field is bounded; the schemas give each limit, and a value past one is a 400
  (VALIDATION_FAILED) naming the field, with nothing changed. Lengths count Unicode code points;
  free text may not contain NUL or unpaired surrogates.
* Every 200 of a GET or a write, and the 204 of a tag attach, carry a strong \`ETag\` naming the version of
  the resource as stored. A GET whose \`If-None-Match\` names it gets 304 (whatever its \`Cache-Control\`);
  a write with \`If-Match\` happens only while the resource is at that version (else 412).
* Every \`PATCH\`, \`PUT\` and \`POST\` may carry an \`Idempotency-Key\`: a retry with the same key gets the
  first successful answer again (\`Idempotent-Replayed: true\`) instead of changing anything twice.

### Error catalogue
| sec | status | code | meaning |
|---|---|---|---|
${Object.entries(CATALOGUE)
  .map(([code, e]) => `| \`${e.sec}\` | ${e.status} | ${code} | ${e.meaning} |`)
  .join('\n')}
`;

/** Marks the operations of @Public() routes while the document is built; removed again afterwards. */
const PUBLIC_MARK = 'x-wca-public';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const TAGS: Array<[name: string, description: string]> = [
  ['Notes', 'Note templates: the instructions and sections that shape enhanced notes'],
  ['Pages', 'Pages of a project: their fields, their place in the page tree, archiving and public sharing'],
  ['Cards', 'Cards and the tags attached to them'],
  ['Tags', 'Tags of a workspace or of one project: listing, creating, renaming and deleting them'],
  [
    'Webhooks',
    'Change events: subscriptions that receive every change made through the API, signed (Standard Webhooks), ' +
      'at least once and in order per resource, and the log of their deliveries',
  ],
  ['Health', 'Liveness and readiness for orchestrators; no token needed'],
  ['Public pages', 'Shared pages, for anyone with their URL: HTML with no script, or JSON; no token needed'],
];

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Workspace Content API')
    .setDescription(DESCRIPTION.trim())
    .setVersion('0.1')
    // A variable, not a fixed host: the document is the same wherever the service is deployed.
    .addServer('{origin}', 'Where this service is reached', {
      origin: {
        default: `http://localhost:${app.get(AppConfig).port}`,
        description: 'Scheme, host and port of the deployment; by default this instance on its PORT',
      },
    })
    .addSecurity('bearer', {
      type: 'http',
      scheme: 'bearer',
      description:
        'An opaque access token (not a JWT: it carries no claims a client can read), issued to one user for one ' +
        'workspace by `npm run cli -- token create`; it may expire or be revoked',
    })
    .addSecurityRequirements('bearer');
  for (const [name, description] of TAGS) builder.addTag(name, description);
  const config = builder.build();
  config.info.contact = { name: 'Workspace Content API maintainers' };
  // package.json's "UNLICENSED": npm's documentation of that value is the nearest thing to a licence text.
  config.info.license = {
    name: 'UNLICENSED (proprietary, all rights reserved)',
    url: 'https://docs.npmjs.com/cli/v11/configuring-npm/package-json#license',
  };
  markPublicHandlers(app);
  const document = SwaggerModule.createDocument(app, config);
  for (const item of Object.values(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method] as (typeof item)[typeof method] & Record<string, unknown>;
      if (!operation) continue;
      // The global bearer requirement does not apply to routes the guard lets through.
      if (operation[PUBLIC_MARK]) operation.security = [];
      delete operation[PUBLIC_MARK];
      // An empty body is accepted by every update and means "change nothing"; a creation needs its body.
      if (operation.requestBody && 'content' in operation.requestBody)
        operation.requestBody.required =
          method === 'post' &&
          ['createWebhook', 'createPage', 'createNoteTemplate', 'createTag'].includes(operation.operationId as string);
      const takes = (name: string) => operation.parameters?.some((p) => 'name' in p && p.name === name) ?? false;
      const extra = {
        // A delete leaves no version to name.
        ...((takes('If-None-Match') || takes('If-Match')) && method !== 'delete' ? { ETag: ETAG_HEADER } : {}),
        ...(takes('Idempotency-Key') ? { 'Idempotent-Replayed': REPLAYED_HEADER } : {}),
      };
      for (const [status, response] of Object.entries(operation.responses)) {
        if (response && /^2/.test(status) && !('$ref' in response))
          response.headers = { ...response.headers, ...extra };
      }
    }
  }
  // The server rejects unknown request fields and sends no undocumented response fields.
  for (const schema of Object.values(document.components?.schemas ?? {})) closeObjects(schema);
  return document;
}

/**
 * Tags every handler the auth guard treats as public (IS_PUBLIC on the handler or its class, as the
 * guard reads it) with an OpenAPI extension, so that the document scanner maps it to its operation.
 */
function markPublicHandlers(app: INestApplication): void {
  const reflector = new Reflector();
  const scanner = new MetadataScanner();
  for (const module of app.get(ModulesContainer).values()) {
    for (const { metatype } of module.controllers.values()) {
      if (typeof metatype !== 'function') continue;
      const prototype = metatype.prototype as Record<string, (...args: unknown[]) => unknown>;
      for (const name of scanner.getAllMethodNames(prototype)) {
        const handler = prototype[name];
        if (!reflector.getAllAndOverride<boolean>(IS_PUBLIC, [handler, metatype])) continue;
        ApiExtension(PUBLIC_MARK, true)(prototype, name, { value: handler });
      }
    }
  }
}

/**
 * Sets additionalProperties: false on a schema with properties, and on those nested in it, unless they
 * say otherwise.
 */
function closeObjects(schema: unknown): void {
  if (!schema || typeof schema !== 'object') return;
  const s = schema as Record<string, unknown>;
  if (s.properties && s.additionalProperties === undefined) s.additionalProperties = false;
  const nested: unknown[] = [
    ...Object.values((s.properties ?? {}) as Record<string, unknown>),
    s.items,
    s.additionalProperties,
    s.not,
  ];
  for (const list of [s.allOf, s.anyOf, s.oneOf]) if (Array.isArray(list)) nested.push(...(list as unknown[]));
  nested.forEach(closeObjects);
}

/** Serves the document at /openapi.json and a browsable reference at /docs; neither needs a token. */
export function setupOpenApi(app: INestApplication): void {
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: 'openapi.json',
    yamlDocumentUrl: 'openapi.yaml',
    swaggerOptions: { persistAuthorization: true },
  });
}
