import express from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import request from 'supertest';
import { createExpressServer } from './express-server';

describe('createExpressServer', () => {
  it('makes requests and responses with the app’s prototypes before Express sees them', async () => {
    const app = express();
    app.get('/pages/:id', (req, res) => void res.status(201).json({ id: req.params.id, query: req.query }));
    const server = createExpressServer(app);
    const born: { request: boolean; response: boolean }[] = [];
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) =>
      born.push({
        request: Object.getPrototypeOf(req) === app.request,
        response: Object.getPrototypeOf(res) === app.response,
      }),
    );

    const answer = await request(server).get('/pages/7?a=1');

    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ id: '7', query: { a: '1' } });
    expect(born).toEqual([{ request: true, response: true }]);
  });
});
