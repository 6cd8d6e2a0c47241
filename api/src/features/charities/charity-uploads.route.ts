/**
 * Files a charity sends, as multipart/form-data with one file part (REST, like listing photos:
 * files travel best as multipart):
 *   POST /api/uploads/charity-logo      a logo for the sign-up form (an image, at most 10 MB;
 *                                       stored as a 400 px WebP under the applicant's prefix)
 *   POST /api/uploads/charity-listings  a bulk-listing CSV (at most 5 MB and 2,000 rows): the
 *                                       answer is the import, whose rows are then listed in
 *                                       batches while the page polls it
 * The same access rules as tRPC (session cookie or bearer token; CSRF for cookies); refusals
 * are JSON { error, message } with the message to show.
 */
import { randomBytes } from 'node:crypto';
import fastifyMultipart from '@fastify/multipart';
import {
  BULK_LIMITS,
  BULK_MESSAGES,
  CHARITY_IMPORT_PATH,
  CHARITY_LOGO_PATH,
  SELLING_LIMITS,
  SELLING_MESSAGES,
} from '@reshelf/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../../config.ts';
import type { Database } from '../../db/index.ts';
import { APP_ERROR_CODES, asAppError, retryAfterOf } from '../../errors.ts';
import { csrfGuard } from '../../http/csrf.ts';
import { multipartTextProblem } from '../../http/text-guard.ts';
import type { Services } from '../../services.ts';
import { resolveAuth } from '../auth/resolve-auth.ts';
import { processPhoto } from '../selling/photos.ts';
import { refuse, STATUS_OF } from '../selling/upload.route.ts';
import { createImport } from './bulk-import.service.ts';
import { logoPrefix } from './charity-account.service.ts';

/** The signed-in caller and their one uploaded file, or a refusal already sent. */
async function receiveFile(
  request: FastifyRequest,
  reply: FastifyReply,
  options: { config: AppConfig; services: Services; tooBig: string; missing: string },
): Promise<{ userId: string; name: string; bytes: Buffer } | null> {
  const auth = await resolveAuth(request, reply, options.services.identity, options.config);
  if (!auth.claims) {
    refuse(
      reply,
      401,
      auth.rejected ? 'Your session has expired. Please sign in again.' : 'Please sign in to continue.',
    );
    return null;
  }
  if (!request.isMultipart()) {
    refuse(reply, 400, options.missing);
    return null;
  }
  const file = await request.file();
  if (!file) {
    refuse(reply, 400, options.missing);
    return null;
  }
  const badText = multipartTextProblem(file);
  if (badText) {
    refuse(reply, 400, badText);
    return null;
  }
  try {
    const bytes = await file.toBuffer();
    if (bytes.length === 0) {
      refuse(reply, 400, options.missing);
      return null;
    }
    return { userId: auth.claims.userId, name: file.filename || 'upload', bytes };
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      refuse(reply, 413, options.tooBig);
      return null;
    }
    throw error;
  }
}

function sendError(request: FastifyRequest, reply: FastifyReply, error: unknown, fallback: string) {
  // Domain errors, and the database being unreachable (503 with Retry-After).
  const known = asAppError(error);
  if (known) {
    const retryAfter = retryAfterOf(known);
    if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
    return refuse(reply, STATUS_OF[APP_ERROR_CODES[known.code]], known.message);
  }
  const code = (error as { code?: string }).code;
  if (code?.startsWith('FST_')) return refuse(reply, 400, fallback);
  request.log.error({ err: error }, 'charity upload failed');
  return reply.code(500).send({
    error: 'Internal Server Error',
    message: 'Something went wrong on our side. Please try again in a moment.',
  });
}

export async function registerCharityUploadRoutes(
  app: FastifyInstance,
  options: { config: AppConfig; db: Database; services: Services },
): Promise<void> {
  const { config, db, services } = options;

  await app.register(async (scope) => {
    scope.addHook('onRequest', csrfGuard(config));
    await scope.register(fastifyMultipart, {
      limits: { fileSize: SELLING_LIMITS.maxPhotoBytes, files: 1, fields: 4, parts: 5, fieldSize: 1024 },
    });
    scope.post(CHARITY_LOGO_PATH, async (request, reply) => {
      try {
        const file = await receiveFile(request, reply, {
          config,
          services,
          tooBig: SELLING_MESSAGES.photoTooBig,
          missing: SELLING_MESSAGES.photoMissingFile,
        });
        if (!file) return reply;
        const photo = await processPhoto(file.bytes);
        const key = `${logoPrefix(file.userId)}${randomBytes(8).toString('hex')}/${SELLING_LIMITS.photoThumbPx}.webp`;
        await services.storage.put(key, photo.thumb.body, photo.thumb.contentType);
        return reply.code(201).send({ url: services.storage.publicUrl(key) });
      } catch (error) {
        return sendError(request, reply, error, SELLING_MESSAGES.photoMissingFile);
      }
    });
  });

  await app.register(async (scope) => {
    scope.addHook('onRequest', csrfGuard(config));
    await scope.register(fastifyMultipart, {
      limits: { fileSize: BULK_LIMITS.maxFileBytes, files: 1, fields: 4, parts: 5, fieldSize: 1024 },
    });
    scope.post(CHARITY_IMPORT_PATH, async (request, reply) => {
      const missing = 'Choose a CSV file to upload.';
      try {
        const file = await receiveFile(request, reply, {
          config,
          services,
          tooBig: BULK_MESSAGES.tooBig,
          missing,
        });
        if (!file) return reply;
        const created = await createImport(
          { db, bookLookup: services.bookLookup, log: (err, message) => request.log.error({ err }, message) },
          file.userId,
          { name: file.name, bytes: file.bytes },
        );
        return reply.code(created.repeated ? 200 : 201).send(created);
      } catch (error) {
        return sendError(request, reply, error, missing);
      }
    });
  });
}
