/**
 * POST /api/uploads/message-photo?threadId=<id>: one photo for a message, as multipart/form-data
 * with a single file part, exactly as listing photos are taken (features/selling/upload.route.ts):
 * the session cookie or a bearer token, the CSRF rule for cookies, the type read from the first
 * bytes, over 10 MB refused while it streams in, over 40 megapixels refused from the header, and
 * the stored sizes re-encoded as WebP without the original's metadata (no GPS location).
 *
 * Only a member of the conversation who may write in it now can upload (a blocked pair cannot).
 * The answer is `{ url, thumbUrl }`; the member then sends the message with the `url`, which
 * `messages.send` accepts only for this thread's own photos.
 */
import { randomBytes } from 'node:crypto';
import fastifyMultipart from '@fastify/multipart';
import { MESSAGE_PHOTO_PATH, SELLING_LIMITS, SELLING_MESSAGES } from '@reshelf/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppConfig } from '../../config.ts';
import type { Database } from '../../db/index.ts';
import { APP_ERROR_CODES, asAppError, retryAfterOf } from '../../errors.ts';
import { csrfGuard } from '../../http/csrf.ts';
import { multipartTextProblem } from '../../http/text-guard.ts';
import type { Secrets } from '../../secrets.ts';
import type { Services } from '../../services.ts';
import { READ_ONLY_TOKEN_MESSAGE } from '../../trpc.ts';
import { resolveAuth } from '../auth/resolve-auth.ts';
import { processPhoto } from '../selling/photos.ts';
import { refuse, STATUS_OF } from '../selling/upload.route.ts';
import { assertCanAttach, storeMessagePhoto } from './messages.service.ts';

export async function registerMessagePhotoRoute(
  app: FastifyInstance,
  options: { config: AppConfig; db: Database; services: Services; secrets: Secrets },
): Promise<void> {
  const { config, db, services, secrets } = options;
  await app.register(async (scope) => {
    scope.addHook('onRequest', csrfGuard(config));
    await scope.register(fastifyMultipart, {
      limits: { fileSize: SELLING_LIMITS.maxPhotoBytes, files: 1, fields: 4, parts: 5, fieldSize: 1024 },
    });
    scope.post(MESSAGE_PHOTO_PATH, async (request, reply) => {
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
      const threadId = z.uuid().safeParse((request.query as { threadId?: unknown }).threadId);
      if (!threadId.success) return refuse(reply, 400, 'Say which conversation the photo is for (threadId).');
      if (!request.isMultipart()) return refuse(reply, 400, SELLING_MESSAGES.photoMissingFile);
      try {
        await assertCanAttach(db, auth.claims.userId, threadId.data);
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
        const saved = await storeMessagePhoto(
          services.storage,
          threadId.data,
          photo,
          randomBytes(8).toString('hex'),
        );
        return reply.code(201).send(saved);
      } catch (error) {
        const known = asAppError(error);
        if (known) {
          const retryAfter = retryAfterOf(known);
          if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
          return refuse(reply, STATUS_OF[APP_ERROR_CODES[known.code]], known.message);
        }
        const code = (error as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE') return refuse(reply, 413, SELLING_MESSAGES.photoTooBig);
        if (code?.startsWith('FST_')) return refuse(reply, 400, SELLING_MESSAGES.photoMissingFile);
        throw error;
      }
    });
  });
}
