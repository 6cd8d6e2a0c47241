/**
 * Compression of the BFF's own answers (@fastify/compress): brotli or gzip, as the client's
 * Accept-Encoding prefers, for compressible types (JSON, text, CSV; never text/event-stream)
 * of 1 KB or more. Answers that already carry a Content-Encoding (the web's pre-compressed
 * .br/.gz files, served by @fastify/static) pass untouched, and images are not compressible.
 */
import { pipeline, type Readable } from 'node:stream';
import { createBrotliCompress, createGzip, constants as zlibConstants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Smaller answers fit in a packet or two either way: compressing them costs more than it saves. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    encodings: ['br', 'gzip'],
    threshold: COMPRESS_THRESHOLD_BYTES,
    // Our clients never compress what they send: request bodies are read as they come.
    globalDecompression: false,
  });
}

/** The encoding to send a streamed answer in: brotli, then gzip, as Accept-Encoding allows. */
export function streamEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  const allowed = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    allowed.set(name.trim(), q ? Number(q.slice(2)) || 0 : 1);
  }
  const takes = (name: string) => (allowed.get(name) ?? allowed.get('*') ?? 0) > 0;
  if (takes('br')) return 'br';
  if (takes('gzip')) return 'gzip';
  return null;
}

/**
 * A streamed answer compressed as the request allows, for the handlers @fastify/compress does
 * not reach: it hooks routes as they are declared, and the not-found handler (where the
 * server-rendered pages are answered) is not one. Sets Content-Encoding and Vary.
 */
export function compressedStream(request: FastifyRequest, reply: FastifyReply, body: Readable): Readable {
  // Added to what Vary already names (CORS's Origin), not put in its place.
  const vary = String(reply.getHeader('vary') ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (!vary.some((name) => name === '*' || name.toLowerCase() === 'accept-encoding'))
    reply.header('vary', [...vary, 'Accept-Encoding'].join(', '));
  const encoding = streamEncoding(request.headers['accept-encoding']);
  if (!encoding) return body;
  reply.header('content-encoding', encoding);
  // Brotli at 5: most of its gain on HTML at a fraction of the default's (11) CPU, as a page streams.
  const encoder =
    encoding === 'br'
      ? createBrotliCompress({ params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } })
      : createGzip();
  return pipeline(body, encoder, () => {
    // A client that went away ends the pipeline; the renderer's own errors are logged where it runs.
  });
}
