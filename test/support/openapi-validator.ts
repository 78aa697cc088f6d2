import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

interface OpenApiDocument {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>
  >;
  components: { schemas: Record<string, object> };
}

export interface ObservedResponse {
  method: string;
  url: string;
  status: number;
  body: unknown;
  contentType?: string;
}

const ERROR_BODY = '#/components/schemas/ErrorBodyDto';

/**
 * Checks a response against the served OpenAPI document: the route and status must be documented,
 * and the body must match the documented schema exactly — objects are closed (an undocumented field
 * fails) so the document cannot drift from what the service sends.
 */
export class OpenApiValidator {
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly routes: Array<{ template: string; pattern: RegExp }>;

  constructor(private readonly doc: OpenApiDocument) {
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: 'openapi', components: closeObjects(doc.components) });
    this.routes = Object.keys(doc.paths).map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }));
  }

  /** Throws a readable error when the response is not what the document promises. */
  check(response: ObservedResponse): void {
    const path = new URL(response.url, 'http://x').pathname;
    if (path === '/openapi.json' || path.startsWith('/docs')) return;
    const route = this.routes.find((r) => r.pattern.test(path));
    const operation = route && this.doc.paths[route.template][response.method.toLowerCase()];
    if (!operation) {
      if (response.status < 400)
        throw new Error(`${response.method} ${path} answered ${response.status} but is not documented`);
      return this.validate(ERROR_BODY, response, 'an error body');
    }
    const documented = operation.responses[String(response.status)];
    if (!documented) {
      throw new Error(
        `${response.method} ${route.template} answered ${response.status}, ` +
          'which its OpenAPI operation does not document',
      );
    }
    const schema = documented.content?.['application/json']?.schema as { $ref?: string } | undefined;
    if (!schema) {
      if (response.body !== undefined && response.body !== '' && Object.keys(response.body as object).length > 0) {
        throw new Error(`${response.method} ${route.template} ${response.status} documents no body but sent one`);
      }
      return;
    }
    this.validate(schema, response, `${response.method} ${route.template} ${response.status}`);
  }

  private validate(schemaOrRef: object | string, response: ObservedResponse, what: string): void {
    const key = typeof schemaOrRef === 'string' ? schemaOrRef : JSON.stringify(schemaOrRef);
    let validate = this.compiled.get(key);
    if (!validate) {
      const schema = typeof schemaOrRef === 'string' ? { $ref: schemaOrRef } : schemaOrRef;
      validate = this.ajv.compile(closeObjects(rebaseRefs(schema)));
      this.compiled.set(key, validate);
    }
    if (!validate(response.body)) {
      const problems = this.ajv.errorsText(validate.errors, { separator: '\n  ' });
      throw new Error(
        `Response of ${what} does not match the OpenAPI document:\n  ${problems}\n` +
          `Body: ${JSON.stringify(response.body).slice(0, 2000)}`,
      );
    }
  }
}

/** Points local refs at the components registered under the id "openapi". */
function rebaseRefs<T>(schema: T): T {
  return JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"openapi#/components/'));
}

/** Every object schema with properties gets additionalProperties: false unless it says otherwise. */
function closeObjects<T>(node: T): T {
  if (Array.isArray(node)) return node.map(closeObjects) as T;
  if (node && typeof node === 'object') {
    const copy = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, closeObjects(v)])) as Record<
      string,
      unknown
    >;
    if (copy.properties && copy.additionalProperties === undefined) copy.additionalProperties = false;
    return copy as T;
  }
  return node;
}
