/**
 * POST /api/uploads/listing-photo?listingId=<id>: one photo for a listing, as
 * multipart/form-data with a single file part (any field name). A REST route rather than a
 * tRPC procedure because files travel best as multipart, not base64 inside JSON (a third
 * bigger, and all in memory twice).
 *
 * Access: requireAccess('authed') (http/access.ts), the same rule as an authed procedure:
 * the session cookie or a bearer token, not suspended, a read-and-write API token, and for
 * cookie sessions the CSRF rule. The file's type is read from its first bytes; over 10 MB is
 * refused while it streams in. The answer is the photo's two URLs and the listing as it now
 * is; refusals are JSON { error, message } (the app's error handler, from the error table in
 * errors.ts) with the message to show: 400 (not an image, unreadable, over 40 megapixels, too
 * many photos), 401, 403, 404, 409 (reserved or sold), 413 (too big) and 503 with Retry-After
 * (too many images being processed at once: decision 0026). The steps are the shared photo
 * upload's (http/multipart.ts).
 */
import { listingIdSchema } from '@reshelf/contracts';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { registerPhotoUploadRoute } from '../../http/multipart.ts';
import type { StoragePort } from '../../platform/storage/port.ts';
import { addPhoto, assertCanAddPhoto } from './selling.service.ts';

export const LISTING_PHOTO_PATH = '/api/uploads/listing-photo';

export async function registerUploadRoutes(
  app: FastifyInstance,
  options: { db: Database; services: { storage: StoragePort } },
): Promise<void> {
  const { db, services } = options;
  await registerPhotoUploadRoute(app, {
    path: LISTING_PHOTO_PATH,
    parseTarget: (request) => {
      const listingId = listingIdSchema.safeParse((request.query as { listingId?: unknown }).listingId);
      if (!listingId.success)
        throw new AppError('BAD_INPUT', 'Say which listing the photo is for (listingId).');
      return listingId.data;
    },
    authorise: (userId, listingId) => assertCanAddPhoto(db, userId, listingId),
    // Shown on cards and the listing page: every size, in AVIF and WebP (decision 0063).
    sizes: true,
    store: async (photo, userId, listingId) => {
      const saved = await addPhoto(db, services.storage, userId, listingId, photo);
      return {
        url: saved.url,
        thumbUrl: saved.thumbUrl,
        width: photo.large.width,
        height: photo.large.height,
        listing: saved.listing,
      };
    },
  });
}
