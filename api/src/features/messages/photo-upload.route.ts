/**
 * POST /api/uploads/message-photo?threadId=<id>: one photo for a message, as multipart/form-data
 * with a single file part, exactly as listing photos are taken (features/selling/upload.route.ts):
 * requireAccess('authed') (the session cookie or a bearer token, not suspended, a read-and-write
 * API token, the CSRF rule for cookies: http/access.ts), the type read from the first
 * bytes, over 10 MB refused while it streams in, over 40 megapixels refused from the header, and
 * the stored sizes re-encoded as WebP without the original's metadata (no GPS location).
 *
 * Only a member of the conversation who may write in it now can upload (a blocked pair cannot).
 * The answer is `{ url, thumbUrl }`; the member then sends the message with the `url`, which
 * `messages.member.send` accepts only for this thread's own photos.
 */
import { randomBytes } from 'node:crypto';
import fastifyMultipart from '@fastify/multipart';
import { MESSAGE_PHOTO_PATH, SELLING_LIMITS, SELLING_MESSAGES } from '@reshelf/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { callerOf, requireAccess } from '../../http/access.ts';
import { assertMultipart, receiveFile } from '../../http/multipart.ts';
import type { Services } from '../../services.ts';
import { processPhoto } from '../selling/photos.ts';
import { assertCanAttach, storeMessagePhoto } from './messages.service.ts';

const PHOTO_FILE = { missing: SELLING_MESSAGES.photoMissingFile, tooBig: SELLING_MESSAGES.photoTooBig };

export async function registerMessagePhotoRoute(
  app: FastifyInstance,
  options: { db: Database; services: Services },
): Promise<void> {
  const { db, services } = options;
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, {
      limits: { fileSize: SELLING_LIMITS.maxPhotoBytes, files: 1, fields: 4, parts: 5, fieldSize: 1024 },
    });
    scope.post(MESSAGE_PHOTO_PATH, requireAccess('authed'), async (request, reply) => {
      const userId = callerOf(request).userId;
      const threadId = z.uuid().safeParse((request.query as { threadId?: unknown }).threadId);
      if (!threadId.success) {
        throw new AppError('BAD_INPUT', 'Say which conversation the photo is for (threadId).');
      }
      assertMultipart(request, PHOTO_FILE);
      await assertCanAttach(db, userId, threadId.data);
      const file = await receiveFile(request, PHOTO_FILE);
      const photo = await processPhoto(file.bytes);
      const saved = await storeMessagePhoto(
        services.storage,
        threadId.data,
        photo,
        randomBytes(8).toString('hex'),
      );
      return reply.code(201).send(saved);
    });
  });
}
