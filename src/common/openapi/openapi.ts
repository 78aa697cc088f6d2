import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { CATALOGUE } from '../../errors/catalogue';

const DESCRIPTION = `
Workspace Content API: update note templates and pages, and tag cards, in team workspaces.

* Every route needs \`Authorization: Bearer <token>\`; a token belongs to one user in one workspace.
* **STime** is an integer count of **milliseconds** since the Unix epoch in every field (the
  interface declares seconds, but every published example of the real service has 13 digits).
* Every non-2xx response has the body \`{"error": {id, code, sec, message, date}}\`; \`code\` is the
  HTTP status and \`id\` appears in the server log line of the request.
* Request bodies are strict: an unknown field is a 400. Bodies are JSON only (415 otherwise), at most 1 MiB (413).
* An update that changes nothing leaves \`time_updated\` and \`user_updated\` as they were.

### Error catalogue
| sec | status | code | meaning |
|---|---|---|---|
${Object.entries(CATALOGUE)
  .map(([code, e]) => `| \`${e.sec}\` | ${e.status} | ${code} | ${e.meaning} |`)
  .join('\n')}
`;

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Workspace Content API')
    .setDescription(DESCRIPTION.trim())
    .setVersion('0.1')
    .addBearerAuth()
    .addSecurityRequirements('bearer')
    .build();
  return SwaggerModule.createDocument(app, config);
}

/** Serves the document at /openapi.json and a browsable reference at /docs; neither needs a token. */
export function setupOpenApi(app: INestApplication): void {
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: 'openapi.json',
    yamlDocumentUrl: 'openapi.yaml',
    swaggerOptions: { persistAuthorization: true },
  });
}
