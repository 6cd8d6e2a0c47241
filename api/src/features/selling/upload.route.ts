/**
 * POST /api/uploads/listing-photo?listingId=<id>: one photo for a listing, as
 * multipart/form-data with a single file part (any field name). A REST route rather than a
 * tRPC procedure because files travel best as multipart, not base64 inside JSON (a third
 * bigger, and all in memory twice).
 *
 * The same access rules as tRPC: the session cookie or a bearer token (resolveAuth), and for
 * cookie sessions the CSRF rule (the x-reshelf-client header, and our own Origin). The file's
 * type is read from its first bytes; over 10 MB is refused while it streams in. The answer is
 * the photo's two URLs and the listing as it now is; refusals are JSON { error, message } with
 * the message to show: 400 (not an image, unreadable, over 40 megapixels, too many photos),
 * 401, 403, 404, 409 (reserved or sold), 413 (too big) and 503 with Retry-After (too many
 * images being processed at once: decision 0026).
 */
import fastifyMultipart from '@fastify/multipart';
import { listingIdSchema, SELLING_LIMITS, SELLING_MESSAGES } from '@reshelf/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppConfig } from '../../config.ts';
import type { Database } from '../../db/index.ts';
import { APP_ERROR_CODES, AppError, retryAfterOf } from '../../errors.ts';
import { csrfGuard } from '../../http/csrf.ts';
import { multipartTextProblem } from '../../http/text-guard.ts';
import type { Secrets } from '../../secrets.ts';
import type { Services } from '../../services.ts';
import { READ_ONLY_TOKEN_MESSAGE } from '../../trpc.ts';
import { resolveAuth } from '../auth/resolve-auth.ts';
import { processPhoto } from './photos.ts';
import { addPhoto, assertCanAddPhoto } from './selling.service.ts';

export const LISTING_PHOTO_PATH = '/api/uploads/listing-photo';

export const STATUS_OF: Record<(typeof APP_ERROR_CODES)[keyof typeof APP_ERROR_CODES], number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  TOO_MANY_REQUESTS: 429,
  PRECONDITION_FAILED: 412,
  SERVICE_UNAVAILABLE: 503,
  BAD_GATEWAY: 502,
};

/** A refusal as JSON { error, message }, the message written for people. */
export function refuse(reply: FastifyReply, status: number, message: string) {
  const error =
    status === 401
      ? 'Unauthorized'
      : status === 403
        ? 'Forbidden'
        : status === 404
          ? 'Not Found'
          : status === 409
            ? 'Conflict'
            : status === 413
              ? 'Payload Too Large'
              : status >= 500
                ? 'Service Unavailable'
                : 'Bad Request';
  return reply.code(status).send({ error, message });
}

export async function registerUploadRoutes(
  app: FastifyInstance,
  options: { config: AppConfig; db: Database; services: Services; secrets: Secrets },
): Promise<void> {
  const { config, db, services, secrets } = options;
  await app.register(async (scope) => {
    scope.addHook('onRequest', csrfGuard(config));
    await scope.register(fastifyMultipart, {
      limits: { fileSize: SELLING_LIMITS.maxPhotoBytes, files: 1, fields: 4, parts: 5, fieldSize: 1024 },
    });
    scope.post(LISTING_PHOTO_PATH, async (request, reply) => {
      const auth = await resolveAuth(request, reply, services.identity, config, {
        apiTokens: { db, secrets },
        suspensions: db,
      });
      if (auth.refusal) {
        if (auth.refusal.retryAfterSeconds)
          reply.header('retry-after', String(auth.refusal.retryAfterSeconds));
        return refuse(reply, auth.refusal.status, auth.refusal.message);
      }
      if (!auth.claims) {
        return refuse(
          reply,
          401,
          auth.rejected ? 'Your session has expired. Please sign in again.' : 'Please sign in to continue.',
        );
      }
      if (auth.apiToken?.scope === 'read') return refuse(reply, 403, READ_ONLY_TOKEN_MESSAGE);
      const listingId = listingIdSchema.safeParse((request.query as { listingId?: unknown }).listingId);
      if (!listingId.success) return refuse(reply, 400, 'Say which listing the photo is for (listingId).');
      if (!request.isMultipart()) return refuse(reply, 400, SELLING_MESSAGES.photoMissingFile);
      try {
        await assertCanAddPhoto(db, auth.claims.userId, listingId.data);
        const file = await request.file();
        if (!file) return refuse(reply, 400, SELLING_MESSAGES.photoMissingFile);
        const badText = multipartTextProblem(file);
        if (badText) return refuse(reply, 400, badText);
        let bytes: Buffer;
        try {
          bytes = await file.toBuffer();
        } catch (error) {
          if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
            return refuse(reply, 413, SELLING_MESSAGES.photoTooBig);
          }
          throw error;
        }
        if (bytes.length === 0) return refuse(reply, 400, SELLING_MESSAGES.photoMissingFile);
        const photo = await processPhoto(bytes);
        const saved = await addPhoto(db, services.storage, auth.claims.userId, listingId.data, photo);
        return reply.code(201).send({
          url: saved.url,
          thumbUrl: saved.thumbUrl,
          width: photo.large.width,
          height: photo.large.height,
          listing: saved.listing,
        });
      } catch (error) {
        if (error instanceof AppError) {
          // A busy image limiter says how long to wait; storage failing is worth a log line.
          const busy = typeof error.details?.retryAfterSeconds === 'number';
          if (!busy && (error.code === 'BAD_GATEWAY' || error.code === 'UNAVAILABLE')) {
            request.log.error({ err: error, details: error.details }, 'photo storage failed');
          }
          const retryAfter = retryAfterOf(error);
          if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
          return refuse(reply, STATUS_OF[APP_ERROR_CODES[error.code]], error.message);
        }
        const code = (error as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE') return refuse(reply, 413, SELLING_MESSAGES.photoTooBig);
        if (code?.startsWith('FST_')) return refuse(reply, 400, SELLING_MESSAGES.photoMissingFile);
        throw error;
      }
    });
  });
}
