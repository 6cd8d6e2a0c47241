/**
 * POST /api/uploads/message-photo?threadId=<id>: one photo for a message, as multipart/form-data
 * with a single file part, exactly as listing photos are taken (selling/listings/upload.route.ts):
 * requireAccess('authed') (the session cookie or a bearer token, not suspended, a read-and-write
 * API token, the CSRF rule for cookies: http/access.ts), the type read from the first
 * bytes, over 10 MB refused while it streams in, over 40 megapixels refused from the header, and
 * the stored sizes re-encoded as WebP without the original's metadata (no GPS location): the
 * shared photo upload's steps (http/multipart.ts).
 *
 * Only a member of the conversation who may write in it now can upload (a blocked pair cannot).
 * The answer is `{ url, thumbUrl }`, signed (the photo is private: platform/storage/
 * private-photos.ts), so the page can show it; the member then sends the message with the `url`, which
 * `community.messages.member.send` accepts only for this thread's own photos. Each upload is recorded until
 * a message, report or contest uses it; one left unused for UNSENT_PHOTO_HOURS is deleted by the
 * job message_photos.sweep (photo-uploads.ts).
 */
import { randomBytes } from 'node:crypto';
import { MESSAGE_PHOTO_PATH } from '@reshelf/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { registerPhotoUploadRoute } from '../../http/multipart.ts';
import type { StoragePort } from '../../platform/storage/port.ts';
import { signPrivateUrls } from '../../platform/storage/private-photos.ts';
import type { Secrets } from '../../secrets.ts';
import { assertCanAttach, storeMessagePhoto } from './messages.service.ts';

export async function registerMessagePhotoRoute(
  app: FastifyInstance,
  options: { db: Database; services: { storage: StoragePort }; secrets: Secrets },
): Promise<void> {
  const { db, services, secrets } = options;
  await registerPhotoUploadRoute(app, {
    path: MESSAGE_PHOTO_PATH,
    parseTarget: (request) => {
      const threadId = z.uuid().safeParse((request.query as { threadId?: unknown }).threadId);
      if (!threadId.success) {
        throw new AppError('BAD_INPUT', 'Say which conversation the photo is for (threadId).');
      }
      return threadId.data;
    },
    authorise: (userId, threadId) => assertCanAttach(db, userId, threadId),
    store: async (photo, userId, threadId) =>
      signPrivateUrls(
        await storeMessagePhoto(
          { db, storage: services.storage },
          { threadId, uploaderId: userId },
          photo,
          randomBytes(8).toString('hex'),
        ),
        secrets,
      ),
  });
}
