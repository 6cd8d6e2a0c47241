/**
 * Text PostgreSQL cannot store (a NUL character, half of a surrogate pair: see
 * @reshelf/contracts text.ts) refused where text arrives outside the procedures (which refuse
 * it in api/src/trpc.ts): the path and query parameters of the other routes, and the fields and
 * file names of multipart uploads. CSV cells are checked where the file is read
 * (charities/bulk-import.service.ts).
 */
import { describeTextFault, findTextFault, textProblem } from '@reshelf/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * An onRequest hook: such text in a path or query parameter is a 400 naming the parameter, on
 * the paths `only` admits (tRPC and the REST API leave it to the procedures, which answer in
 * their own shape).
 */
export function rejectUnstorableParameters(options: { only: (path: string) => boolean }) {
  // A plain callback (no promise per request): most requests pass at the first line.
  return (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    if (!options.only(request.url.split('?', 1)[0] ?? '')) return done();
    for (const values of [request.params, request.query]) {
      const fault = findTextFault(values);
      if (fault) {
        reply.code(400).send({ error: 'Bad Request', message: describeTextFault(fault) });
        return;
      }
    }
    done();
  };
}

interface MultipartPart {
  type?: string;
  fieldname?: string;
  filename?: string;
  value?: unknown;
}

/** What is wrong with an uploaded file's name or the form fields sent with it, if anything. */
export function multipartTextProblem(file: {
  filename?: string;
  fields?: Record<string, MultipartPart | MultipartPart[] | undefined>;
}): string | null {
  const named = (label: string, text: string | undefined) => {
    const problem = text === undefined ? null : textProblem(text);
    return problem ? `${label}: ${problem}` : null;
  };
  const name = named('File name', file.filename);
  if (name) return name;
  for (const part of Object.values(file.fields ?? {}).flat()) {
    if (!part) continue;
    const problem =
      named('Field name', part.fieldname) ??
      named('File name', part.filename) ??
      (typeof part.value === 'string' ? named(part.fieldname ?? 'field', part.value) : null);
    if (problem) return problem;
  }
  return null;
}
