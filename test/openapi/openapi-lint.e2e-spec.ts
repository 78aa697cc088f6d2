import { Finding, listFindings, redocly, spectral, withDocumentFile } from '../support/openapi-lint';
import { isRequestSide, requestSchemaNames } from '../support/request-schemas';
import { createTestApp } from '../support/test-app';

/**
 * The served document, as a new user lints it with the standard tools: Spectral's `spectral:oas`,
 * Redocly's `recommended`, and the request-side rules of Spectral's OWASP ruleset. Any finding,
 * warnings included, fails.
 */
describe('the OpenAPI document under the standard linters', () => {
  let document: { paths: Record<string, Record<string, { security?: unknown[] }>> };
  let oas: Finding[];
  let recommended: Finding[];
  let owasp: Finding[];
  beforeAll(async () => {
    const t = await createTestApp();
    document = (await t.http.get('/openapi.json').expect(200)).body;
    await t.close();
    [oas, recommended, owasp] = await withDocumentFile(document, (file) =>
      Promise.all([spectral(file, 'oas.spectral.yaml'), redocly(file), spectral(file, 'owasp-request.spectral.yaml')]),
    );
  }, 120_000);

  it('passes spectral:oas with no finding', () => {
    expect(listFindings(oas)).toBe('');
  });

  it('passes Redocly recommended with no finding', () => {
    expect(listFindings(recommended)).toBe('');
  });

  it("bounds every request input as OWASP's request-side rules ask", () => {
    const requestSchemas = requestSchemaNames(document);
    expect(listFindings(owasp.filter((f) => isRequestSide(f.path, requestSchemas)))).toBe('');
  });

  it('documents 401 and 429 on every operation that needs a token (the public health checks answer neither)', () => {
    const authenticated = (f: Finding) => {
      const [, path, method] = f.path;
      return document.paths[path]?.[method]?.security?.length !== 0;
    };
    const responses = owasp.filter((f) => /responses-(401|429)$/.test(f.rule) && f.path[0] === 'paths');
    expect(listFindings(responses.filter(authenticated))).toBe('');
  });
});
