/**
 * GET /storage/<key>: stored files, through the storage port. Keys name content that never
 * changes, so public files are cached for a year as immutable. A private file (a
 * conversation's photo: private-photos.ts) is served only at its signed address, until it
 * expires, and cached privately for no longer; without a valid
 * signature it is the same 404 as a file that does not exist. Only well-formed keys are looked
 * up (no "..", no absolute paths, no encoded separators): anything else is a plain 404.
 *
 * A listing photo's size (PHOTO_WIDTHS, AVIF or WebP: decision 0063) that is not made yet (a
 * photo stored before there were sizes, until the job photos.sizes reaches it) is answered with
 * the nearest file the photo has, its thumbnail or its large WebP, for five minutes only: the
 * page shows the photo, never a broken image, and has the real size once it exists.
 */
import { PHOTO_FORMATS, PHOTO_WIDTHS, photoSizeKey, SELLING_LIMITS } from '@reshelf/contracts';
import type { FastifyInstance } from 'fastify';
import { ERRORS } from '../../errors.ts';
import { requireAccess } from '../../http/access.ts';
import type { Secrets } from '../../secrets.ts';
import { isValidKey, STORAGE_PATH, type StoragePort } from './port.ts';
import { isPrivateKey, signatureSecondsLeft } from './private-photos.ts';

/** How long a stand-in for a size not made yet may be kept (then the real size is asked for). */
export const STAND_IN_SECONDS = 300;

const SIZE_FILE = new RegExp(`^(.+)/(${PHOTO_WIDTHS.join('|')})\\.(${PHOTO_FORMATS.join('|')})$`);

/**
 * For a photo size's key, the file that stands in for it until it is made: the thumbnail (which
 * every photo has) for the smallest width, else the large WebP. Null for any other key, and for
 * the thumbnail itself.
 */
export function standInKey(key: string): string | null {
  const match = SIZE_FILE.exec(key);
  if (!match) return null;
  const [, folder, width, format] = match;
  const smallest = Number(width) === SELLING_LIMITS.photoThumbPx;
  if (smallest && format === 'webp') return null;
  return smallest
    ? photoSizeKey(folder!, SELLING_LIMITS.photoThumbPx, 'webp')
    : `${folder}/${SELLING_LIMITS.photoLargePx}.webp`;
}

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
    let stored = await storage.get(key);
    const standIn = stored ? null : standInKey(key);
    if (standIn) stored = await storage.get(standIn);
    if (!stored) return notFound();
    if (secondsLeft !== null) {
      reply
        .header('cache-control', `private, max-age=${secondsLeft}`)
        .header('referrer-policy', 'no-referrer');
    } else if (standIn) {
      reply.header('cache-control', `public, max-age=${STAND_IN_SECONDS}`);
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
