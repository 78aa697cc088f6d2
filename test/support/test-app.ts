import { INestApplication, Module, Type } from '@nestjs/common';
import request, { Test } from 'supertest';
import { configureApp, createApp } from '../../src/app.setup';
import { SeedableAppModule } from '../../support/seedable-app.module';
import { OpenApiValidator } from './openapi-validator';
import { testConfig } from './test-config';

type Method = 'get' | 'patch' | 'post' | 'put' | 'delete';

/** supertest against the app, where every response is also checked against the served OpenAPI document. */
export type Http = Record<Method, (url: string) => Test>;

export interface TestApp {
  app: INestApplication;
  http: Http;
  /** Every request log line written so far, as parsed JSON (only with LOG_LEVEL set). */
  logs: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

/**
 * The real AppModule through configureApp, with the import to seed through, on the test database.
 * `extraControllers` lets a spec add a route of its own (one that fails on purpose, say) beside the real ones.
 */
export async function createTestApp(env: Record<string, string> = {}, extraControllers: Type[] = []): Promise<TestApp> {
  const config = testConfig(env);
  @Module({ imports: [SeedableAppModule.forRoot(config, config.databaseUrl!)], controllers: extraControllers })
  class TestModule {}
  const app = await createApp({ module: TestModule }, { logger: false });
  const logs: Array<Record<string, unknown>> = [];
  configureApp(app, { logDestination: { write: (line: string) => void logs.push(JSON.parse(line)) } });
  await app.init();
  const server = app.getHttpServer();
  const document = await request(server).get('/openapi.json').expect(200);
  const validator = new OpenApiValidator(document.body);
  const call = (method: Method) => (url: string) =>
    request(server)
      [method](url)
      .expect((res) =>
        validator.check({ method, url, status: res.status, body: res.body, contentType: res.headers['content-type'] }),
      );
  return {
    app,
    logs,
    http: { get: call('get'), patch: call('patch'), post: call('post'), put: call('put'), delete: call('delete') },
    close: () => app.close(),
  };
}
