/**
 * The NUL character (0x00), which PostgreSQL cannot store, refused where text arrives outside
 * the procedures (which refuse it in api/src/trpc.ts): the path and query parameters of the
 * other routes, and the fields and file names of multipart uploads. CSV cells are checked
 * where the file is read (features/charities/bulk-import.service.ts).
 */
import { findNul, NUL_MESSAGE, nulProblem } from '@reshelf/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * An onRequest hook: a NUL in a path or query parameter is a 400 naming the parameter. Paths
 * under `skip` (tRPC and the REST API) leave it to the procedures, which answer in their shape.
 */
export function rejectNulParameters(options: { only: (path: string) => boolean }) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (!options.only(request.url.split('?', 1)[0] ?? '')) return;
    for (const values of [request.params, request.query]) {
      const path = findNul(values);
      if (path) return reply.code(400).send({ error: 'Bad Request', message: nulProblem(path) });
    }
  };
}

interface MultipartPart {
  type?: string;
  fieldname?: string;
  filename?: string;
  value?: unknown;
}

/** What is wrong with an uploaded file's name or the form fields sent with it, if anything. */
export function multipartNulProblem(file: {
  filename?: string;
  fields?: Record<string, MultipartPart | MultipartPart[] | undefined>;
}): string | null {
  if (file.filename?.includes('\u0000')) return `File name: ${NUL_MESSAGE}`;
  for (const part of Object.values(file.fields ?? {}).flat()) {
    if (!part) continue;
    if (part.fieldname?.includes('\u0000')) return `Field name: ${NUL_MESSAGE}`;
    if (part.filename?.includes('\u0000')) return `File name: ${NUL_MESSAGE}`;
    if (typeof part.value === 'string' && part.value.includes('\u0000')) {
      return `${part.fieldname}: ${NUL_MESSAGE}`;
    }
  }
  return null;
}
