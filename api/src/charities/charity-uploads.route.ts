/**
 * Files a charity sends, as multipart/form-data with one file part (REST, like listing photos:
 * files travel best as multipart):
 *   POST /api/uploads/charity-logo      a logo for the sign-up form (an image, at most 10 MB;
 *                                       stored as a 400 px WebP under the applicant's prefix)
 *   POST /api/uploads/charity-listings  a bulk-listing CSV (at most 5 MB and 2,000 rows): the
 *                                       answer is the import, whose rows are then listed in
 *                                       batches while the page polls it
 * Access: requireAccess('authed') (http/access.ts), the same rule as an authed procedure (the
 * session cookie or a bearer token, not suspended, CSRF for cookies); refusals are JSON
 * { error, message } with the message to show (the app's error handler).
 */
import { randomBytes } from 'node:crypto';
import {
  BULK_LIMITS,
  BULK_MESSAGES,
  CHARITY_IMPORT_PATH,
  CHARITY_LOGO_PATH,
  SELLING_LIMITS,
} from '@reshelf/contracts';
import type { FastifyInstance } from 'fastify';
import { kickWantMatcher } from '../community/index.ts';
import type { Database } from '../db/index.ts';
import { callerOf, requireAccess } from '../http/access.ts';
import type { BackgroundWork } from '../http/background.ts';
import { receiveFile, registerPhotoUploadRoute, uploadScope } from '../http/multipart.ts';
import type { BookLookupPort } from '../platform/book-lookup/book-lookup.ts';
import type { Mailer } from '../platform/mail/mailer.ts';
import type { StoragePort } from '../platform/storage/port.ts';
import { createImport } from './bulk-import.service.ts';
import { logoPrefix } from './charity-account.service.ts';

const CSV_FILE = { missing: 'Choose a CSV file to upload.', tooBig: BULK_MESSAGES.tooBig };

export async function registerCharityUploadRoutes(
  app: FastifyInstance,
  options: {
    db: Database;
    services: { storage: StoragePort; bookLookup: BookLookupPort; mailer: Mailer };
    /** For the wants matcher, kicked after each batch of an upload is listed. */
    origin: string;
    background: BackgroundWork;
  },
): Promise<void> {
  const { db, services } = options;

  await registerPhotoUploadRoute(app, {
    path: CHARITY_LOGO_PATH,
    parseTarget: () => null,
    store: async (photo, userId) => {
      const key = `${logoPrefix(userId)}${randomBytes(8).toString('hex')}/${SELLING_LIMITS.photoThumbPx}.webp`;
      await services.storage.put(key, photo.thumb.body, photo.thumb.contentType);
      return { url: services.storage.publicUrl(key) };
    },
  });

  await uploadScope(app, BULK_LIMITS.maxFileBytes, (scope) => {
    scope.post(CHARITY_IMPORT_PATH, requireAccess('authed'), async (request, reply) => {
      const userId = callerOf(request).userId;
      const file = await receiveFile(request, CSV_FILE);
      const created = await createImport(
        {
          db,
          bookLookup: services.bookLookup,
          log: (err, message) => request.log.error({ err }, message),
          afterBatch: () =>
            kickWantMatcher({
              db,
              mailer: services.mailer,
              origin: options.origin,
              background: options.background,
              log: (message, err) => request.log.error({ err }, message),
            }),
        },
        userId,
        { name: file.name, bytes: file.bytes },
      );
      return reply.code(created.repeated ? 200 : 201).send(created);
    });
  });
}
