/**
 * The one file part of an upload route (multipart/form-data with a single file part, any field
 * name), read whole and checked: refusals are AppErrors with the route's own messages, answered
 * by the app's error handler as JSON { error, message } (400, or 413 over the size limit, which
 * is refused while the file streams in).
 */
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
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
