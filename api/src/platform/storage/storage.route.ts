/**
 * GET /storage/<key>: stored files, through the storage port. Keys name content that never
 * changes, so public files are cached for a year as immutable. A private file (a
 * conversation's photo: private-photos.ts) is served only at its signed address, until it
 * expires, and cached privately for no longer; without a valid
 * signature it is the same 404 as a file that does not exist. Only well-formed keys are looked
 * up (no "..", no absolute paths, no encoded separators): anything else is a plain 404.
 */
import type { FastifyInstance } from 'fastify';
import { ERRORS } from '../../errors.ts';
import { requireAccess } from '../../http/access.ts';
import type { Secrets } from '../../secrets.ts';
import { isValidKey, STORAGE_PATH, type StoragePort } from './port.ts';
import { isPrivateKey, signatureSecondsLeft } from './private-photos.ts';

export async function registerStorageRoute(
  app: FastifyInstance,
  storage: StoragePort,
  secrets: Secrets,
): Promise<void> {
  app.get(`${STORAGE_PATH}/*`, requireAccess('public'), async (request, reply) => {
    const key = (request.params as { '*': string })['*'];
    const notFound = () =>
      reply.code(404).send({ error: ERRORS.NOT_FOUND.title, message: 'There is no file at this address.' });
    if (!isValidKey(key)) return notFound();
    const secondsLeft = isPrivateKey(key) ? signatureSecondsLeft(secrets, key, request.query) : null;
    if (isPrivateKey(key) && secondsLeft === null) return notFound();
    const stored = await storage.get(key);
    if (!stored) return notFound();
    if (secondsLeft !== null) {
      reply
        .header('cache-control', `private, max-age=${secondsLeft}`)
        .header('referrer-policy', 'no-referrer');
    } else {
      reply.header('cache-control', 'public, max-age=31536000, immutable');
    }
    return reply
      .header('content-type', stored.contentType)
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('cross-origin-resource-policy', 'cross-origin')
      .send(stored.body);
  });
}
