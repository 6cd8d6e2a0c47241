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
 * (too many images being processed at once: decision 0026).
 */
import fastifyMultipart from '@fastify/multipart';
import { listingIdSchema, SELLING_LIMITS, SELLING_MESSAGES } from '@reshelf/contracts';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { callerOf, requireAccess } from '../../http/access.ts';
import { assertMultipart, receiveFile } from '../../http/multipart.ts';
import type { Services } from '../../services.ts';
import { processPhoto } from './photos.ts';
import { addPhoto, assertCanAddPhoto } from './selling.service.ts';

export const LISTING_PHOTO_PATH = '/api/uploads/listing-photo';

const PHOTO_FILE = { missing: SELLING_MESSAGES.photoMissingFile, tooBig: SELLING_MESSAGES.photoTooBig };

export async function registerUploadRoutes(
  app: FastifyInstance,
  options: { db: Database; services: Services },
): Promise<void> {
  const { db, services } = options;
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, {
      limits: { fileSize: SELLING_LIMITS.maxPhotoBytes, files: 1, fields: 4, parts: 5, fieldSize: 1024 },
    });
    scope.post(LISTING_PHOTO_PATH, requireAccess('authed'), async (request, reply) => {
      const userId = callerOf(request).userId;
      const listingId = listingIdSchema.safeParse((request.query as { listingId?: unknown }).listingId);
      if (!listingId.success)
        throw new AppError('BAD_INPUT', 'Say which listing the photo is for (listingId).');
      assertMultipart(request, PHOTO_FILE);
      try {
        await assertCanAddPhoto(db, userId, listingId.data);
        const file = await receiveFile(request, PHOTO_FILE);
        const photo = await processPhoto(file.bytes);
        const saved = await addPhoto(db, services.storage, userId, listingId.data, photo);
        return reply.code(201).send({
          url: saved.url,
          thumbUrl: saved.thumbUrl,
          width: photo.large.width,
          height: photo.large.height,
          listing: saved.listing,
        });
      } catch (error) {
        // A busy image limiter says how long to wait; storage failing is worth a log line.
        if (
          error instanceof AppError &&
          typeof error.details?.retryAfterSeconds !== 'number' &&
          (error.code === 'BAD_GATEWAY' || error.code === 'UNAVAILABLE')
        ) {
          request.log.error({ err: error, details: error.details }, 'photo storage failed');
        }
        throw error;
      }
    });
  });
}
