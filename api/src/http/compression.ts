/**
 * Compression of the BFF's own answers (@fastify/compress): brotli or gzip, as the client's
 * Accept-Encoding prefers, for compressible types (JSON, text, CSV; never text/event-stream)
 * of 1 KB or more. Answers that already carry a Content-Encoding (the web's pre-compressed
 * .br/.gz files, served by @fastify/static) pass untouched, and images are not compressible.
 */
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

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
