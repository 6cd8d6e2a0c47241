import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { COMPRESS_THRESHOLD_BYTES, registerCompression } from './compression.ts';

describe('registerCompression', () => {
  it('never compresses an event stream', async () => {
    const app = Fastify();
    await registerCompression(app);
    const events = `data: ${'x'.repeat(COMPRESS_THRESHOLD_BYTES * 4)}\n\n`;
    app.get('/events', (_request, reply) => reply.type('text/event-stream').send(events));
    app.get('/json', (_request, reply) => reply.send({ text: 'y'.repeat(COMPRESS_THRESHOLD_BYTES * 4) }));
    try {
      const stream = await app.inject({
        method: 'GET',
        url: '/events',
        headers: { 'accept-encoding': 'br, gzip' },
      });
      expect(stream.headers['content-encoding']).toBeUndefined();
      expect(stream.body).toBe(events);
      const json = await app.inject({
        method: 'GET',
        url: '/json',
        headers: { 'accept-encoding': 'br, gzip' },
      });
      expect(json.headers['content-encoding']).toBe('br');
    } finally {
      await app.close();
    }
  });
});
