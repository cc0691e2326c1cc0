import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { RequestLogController } from './request-log';

async function logsOf(level: string, requests: { method: 'GET' | 'POST' | 'HEAD'; url: string }[]) {
  const lines: { level: number; msg: string; method?: string; url?: string; statusCode?: number }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(
        ...chunk
          .toString()
          .split('\n')
          .filter(Boolean)
          .map((text) => JSON.parse(text)),
      );
      done();
    },
  });
  const app = Fastify({ logger: { level, stream }, logController: new RequestLogController() });
  app.get('/ok', () => ({ ok: true }));
  app.post('/write', () => ({ ok: true }));
  app.get('/fails', () => {
    throw new Error('boom');
  });
  for (const request of requests) await app.inject(request);
  await app.close();
  return lines.filter((line) => line.msg === 'request completed' || line.msg === 'request errored');
}

const REQUESTS = [
  { method: 'GET', url: '/ok' },
  { method: 'HEAD', url: '/ok' },
  { method: 'POST', url: '/write' },
  { method: 'GET', url: '/missing' },
  { method: 'GET', url: '/fails' },
] as const;

describe('RequestLogController', () => {
  it('at info, logs changes, 4xx and 5xx, and not successful reads', async () => {
    const lines = await logsOf('info', [...REQUESTS]);
    expect(lines.map((line) => `${line.method} ${line.url} ${line.statusCode}`)).toEqual([
      'POST /write 200',
      'GET /missing 404',
      'GET /fails 500',
    ]);
    expect(lines.map((line) => line.level)).toEqual([30, 30, 50]);
  });

  it('at debug, logs every request, successful reads at debug', async () => {
    const lines = await logsOf('debug', [...REQUESTS]);
    expect(lines.map((line) => `${line.method} ${line.url} ${line.level}`)).toEqual([
      'GET /ok 20',
      'HEAD /ok 20',
      'POST /write 30',
      'GET /missing 30',
      'GET /fails 50',
    ]);
  });
});
