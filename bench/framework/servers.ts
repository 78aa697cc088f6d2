import { Controller, Get, Module, Param } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter, NestExpressApplication } from '@nestjs/platform-express';
import express from 'express';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { VersionedExpressAdapter } from '../../src/safe-writes/versioned-express-adapter';

/** The same small answer from each server: what the framework costs is all that differs. */
const answer = (id: string) => ({ page: { id, title: 'Welcome', position: 0, parent_page_id: '' } });

/** `nest-ours`: the same Nest app on the service's adapter (src/common/express-server.ts). */
export const FRAMEWORKS = ['node:http', 'express', 'nest', 'nest-ours'] as const;
export type Framework = (typeof FRAMEWORKS)[number];

const PATH = /^\/v1\/pages\/([0-9]{1,19})$/;

function startNodeHttp(): Promise<number> {
  const server = createServer((req, res) => {
    const match = PATH.exec(req.url ?? '');
    const body = JSON.stringify(answer(match ? match[1] : ''));
    res.writeHead(match ? 200 : 404, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function startExpress(): Promise<number> {
  const app = express();
  app.get('/v1/pages/:id', (req, res) => {
    res.json(answer(req.params.id));
  });
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

@Controller('v1/pages')
class PagesController {
  @Get(':id')
  read(@Param('id') id: string) {
    return answer(id);
  }
}

@Module({ controllers: [PagesController] })
class HelloModule {}

async function startNest(adapter: ExpressAdapter): Promise<number> {
  const app = await NestFactory.create<NestExpressApplication>(HelloModule, adapter, { logger: false });
  await app.listen(0, '127.0.0.1');
  return (app.getHttpServer().address() as AddressInfo).port;
}

export function startFramework(framework: Framework): Promise<number> {
  return {
    'node:http': startNodeHttp,
    express: startExpress,
    nest: () => startNest(new ExpressAdapter(express())),
    'nest-ours': () => startNest(new VersionedExpressAdapter(express())),
  }[framework]();
}
