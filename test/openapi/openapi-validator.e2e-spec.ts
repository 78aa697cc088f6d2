import { OpenApiValidator } from '../support/openapi-validator';

/** The check every e2e response goes through must be able to fail. */
describe('OpenApiValidator', () => {
  const validator = new OpenApiValidator({
    paths: {
      '/v1/{team_id}/things/{id}': {
        get: {
          responses: {
            '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
            '204': {},
          },
        },
      },
    },
    components: {
      schemas: {
        Thing: {
          type: 'object',
          properties: { id: { type: 'string' }, n: { type: 'integer', nullable: true } },
          required: ['id'],
        },
        ErrorBodyDto: { type: 'object', properties: { error: { type: 'object' } }, required: ['error'] },
      },
    },
  });
  const ok = { method: 'get', url: '/v1/acme/things/1', status: 200 };

  it('accepts a documented body', () => {
    expect(() => validator.check({ ...ok, body: { id: '1', n: null } })).not.toThrow();
  });

  it('rejects a wrong type, a missing field and an undocumented field', () => {
    expect(() => validator.check({ ...ok, body: { id: 1 } })).toThrow(/must be string/);
    expect(() => validator.check({ ...ok, body: {} })).toThrow(/required property 'id'/);
    expect(() => validator.check({ ...ok, body: { id: '1', extra: true } })).toThrow(/additional properties/);
  });

  it('rejects an undocumented status and an undocumented route', () => {
    expect(() => validator.check({ ...ok, status: 418, body: {} })).toThrow(/does not document/);
    expect(() => validator.check({ method: 'get', url: '/elsewhere', status: 200, body: {} })).toThrow(
      /not documented/,
    );
  });

  it('requires the error body on undocumented routes', () => {
    expect(() => validator.check({ method: 'get', url: '/elsewhere', status: 404, body: { nope: 1 } })).toThrow();
    expect(() => validator.check({ method: 'get', url: '/elsewhere', status: 404, body: { error: {} } })).not.toThrow();
  });
});
