import { Controller, Get, Module, Param } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter, NestExpressApplication } from '@nestjs/platform-express';
import express from 'express';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The same small answer from each server: what the framework costs is all that differs. */
const answer = (id: string) => ({ page: { id, title: 'Welcome', position: 0, parent_page_id: '' } });

export const FRAMEWORKS = ['node:http', 'express', 'nest'] as const;
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

async function startNest(): Promise<number> {
  const app = await NestFactory.create<NestExpressApplication>(HelloModule, new ExpressAdapter(express()), {
    logger: false,
  });
  await app.listen(0, '127.0.0.1');
  return (app.getHttpServer().address() as AddressInfo).port;
}

export function startFramework(framework: Framework): Promise<number> {
  return { 'node:http': startNodeHttp, express: startExpress, nest: startNest }[framework]();
}
