/**
 * GET /storage/<key>: stored files, through the storage port. Keys name content that never
 * changes, so answers are cached for a year as immutable. Only well-formed keys are looked up
 * (no "..", no absolute paths, no encoded separators): anything else is a plain 404.
 */
import type { FastifyInstance } from 'fastify';
import { ERRORS } from '../../errors.ts';
import { requireAccess } from '../../http/access.ts';
import { isValidKey, STORAGE_PATH, type StoragePort } from './port.ts';

export async function registerStorageRoute(app: FastifyInstance, storage: StoragePort): Promise<void> {
  app.get(`${STORAGE_PATH}/*`, requireAccess('public'), async (request, reply) => {
    const key = (request.params as { '*': string })['*'];
    const notFound = () =>
      reply.code(404).send({ error: ERRORS.NOT_FOUND.title, message: 'There is no file at this address.' });
    if (!isValidKey(key)) return notFound();
    const stored = await storage.get(key);
    if (!stored) return notFound();
    return reply
      .header('content-type', stored.contentType)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('cross-origin-resource-policy', 'cross-origin')
      .send(stored.body);
  });
}
