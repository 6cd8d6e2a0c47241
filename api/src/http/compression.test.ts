import { Readable } from 'node:stream';
import { brotliDecompressSync } from 'node:zlib';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  COMPRESS_THRESHOLD_BYTES,
  compressedStream,
  registerCompression,
  streamEncoding,
} from './compression.ts';

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

describe('streamEncoding (server-rendered pages)', () => {
  it('prefers brotli, then gzip, honours q=0 and *, and sends as it is when nothing is taken', () => {
    expect(streamEncoding('gzip, deflate, br')).toBe('br');
    expect(streamEncoding('gzip, br;q=0')).toBe('gzip');
    expect(streamEncoding('deflate')).toBeNull();
    expect(streamEncoding(undefined)).toBeNull();
    expect(streamEncoding('*')).toBe('br');
    expect(streamEncoding('*;q=0, gzip;q=0.5')).toBe('gzip');
    expect(streamEncoding('identity')).toBeNull();
  });

  it('compresses a streamed page as asked, adding Accept-Encoding to the Vary already set', async () => {
    const page = `<p>${'a page '.repeat(2000)}</p>`;
    const app = Fastify();
    app.get('/page', (request, reply) =>
      reply
        .header('vary', 'Origin')
        .type('text/html')
        .send(compressedStream(request, reply, Readable.from([page]))),
    );
    try {
      const br = await app.inject({ url: '/page', headers: { 'accept-encoding': 'gzip, br' } });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.vary).toBe('Origin, Accept-Encoding');
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(page);
      const plain = await app.inject({ url: '/page' });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toBe('Origin, Accept-Encoding');
      expect(plain.body).toBe(page);
    } finally {
      await app.close();
    }
  });
});
