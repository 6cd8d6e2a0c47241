/**
 * The one file part of an upload route (multipart/form-data with a single file part, any field
 * name), read whole and checked: refusals are AppErrors with the route's own messages, answered
 * by the app's error handler as JSON { error, message } (400, or 413 over the size limit, which
 * is refused while the file streams in).
 *
 * `uploadScope` registers the multipart parser with one-file limits for a group of routes;
 * `registerPhotoUploadRoute` is the whole of a photo upload (listing, message, charity logo):
 * access, target, multipart check, permission, receive, processPhoto, store, 201.
 */
import fastifyMultipart from '@fastify/multipart';
import { SELLING_LIMITS, SELLING_MESSAGES } from '@reshelf/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import { type ProcessedPhoto, processPhoto } from '../platform/images/photos.ts';
import { callerOf, requireAccess } from './access.ts';
import { multipartTextProblem } from './text-guard.ts';

export interface FileMessages {
  /** No file, an empty one, or a body that is not multipart. */
  missing: string;
  /** Over the scope's file size limit. */
  tooBig: string;
}

/** Refuses a request that is not multipart at all, before any other work. */
export function assertMultipart(request: FastifyRequest, messages: FileMessages): void {
  if (!request.isMultipart()) throw new AppError('BAD_INPUT', messages.missing);
}

/**
 * The error to answer with for a failure while reading the upload: multipart's own (FST_…) as
 * the route's messages, anything else as it is.
 */
export function uploadFailure(error: unknown, messages: FileMessages): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new AppError('PAYLOAD_TOO_LARGE', messages.tooBig);
  if (typeof code === 'string' && code.startsWith('FST_')) return new AppError('BAD_INPUT', messages.missing);
  return error;
}

export async function receiveFile(
  request: FastifyRequest,
  messages: FileMessages,
): Promise<{ name: string; bytes: Buffer }> {
  assertMultipart(request, messages);
  try {
    const file = await request.file();
    if (!file) throw new AppError('BAD_INPUT', messages.missing);
    const badText = multipartTextProblem(file);
    if (badText) throw new AppError('BAD_INPUT', badText);
    const bytes = await file.toBuffer();
    if (bytes.length === 0) throw new AppError('BAD_INPUT', messages.missing);
    return { name: file.filename || 'upload', bytes };
  } catch (error) {
    throw uploadFailure(error, messages);
  }
}

/** The refusals of every photo upload: no file, or over 10 MB. */
export const PHOTO_FILE: FileMessages = {
  missing: SELLING_MESSAGES.photoMissingFile,
  tooBig: SELLING_MESSAGES.photoTooBig,
};

/**
 * Registers the routes `routes` adds in a scope of their own whose multipart parser takes one
 * file of at most `maxFileBytes` (and a few small fields).
 */
export async function uploadScope(
  app: FastifyInstance,
  maxFileBytes: number,
  routes: (scope: FastifyInstance) => void,
): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, {
      limits: { fileSize: maxFileBytes, files: 1, fields: 4, parts: 5, fieldSize: 1024 },
    });
    routes(scope);
  });
}

export interface PhotoUploadRoute<Target> {
  path: string;
  /** What the photo is for, from the query; throws the refusal to answer when it is missing or bad. */
  parseTarget: (request: FastifyRequest) => Target;
  /** Refuses a caller who may not add a photo to the target, before the file is read. */
  authorise?: (userId: string, target: Target) => Promise<void>;
  /** Make every size in PHOTO_WIDTHS in AVIF and WebP too (a listing's photos: decision 0063). */
  sizes?: boolean;
  /** Stores the processed photo and gives the answer's body (sent with 201). */
  store: (photo: ProcessedPhoto, userId: string, target: Target) => Promise<unknown>;
}

/**
 * POST `route.path`: one photo as multipart/form-data, at most 10 MB, for a signed-in caller
 * (requireAccess('authed')). Steps: the target from the query, not multipart refused, the
 * caller's permission, the file received, processPhoto (type from the first bytes, 40-megapixel
 * limit, WebP without metadata), stored. A storage failure (502/503 without Retry-After) is
 * logged; a busy image limiter's 503 says how long to wait and is not.
 */
export function registerPhotoUploadRoute<Target>(
  app: FastifyInstance,
  route: PhotoUploadRoute<Target>,
): Promise<void> {
  return uploadScope(app, SELLING_LIMITS.maxPhotoBytes, (scope) => {
    scope.post(route.path, requireAccess('authed'), async (request, reply) => {
      const userId = callerOf(request).userId;
      const target = route.parseTarget(request);
      assertMultipart(request, PHOTO_FILE);
      try {
        await route.authorise?.(userId, target);
        const file = await receiveFile(request, PHOTO_FILE);
        const photo = await processPhoto(file.bytes, { sizes: route.sizes ?? false });
        return reply.code(201).send(await route.store(photo, userId, target));
      } catch (error) {
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
