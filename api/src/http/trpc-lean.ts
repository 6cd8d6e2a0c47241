/**
 * The lean tRPC path (decision 0040): tRPC's HTTP protocol served straight from a Fastify route,
 * without the stock adapter's conversion of every Node request into a fetch `Request` (undici
 * headers, an AbortController per request, a `Response` body streamed back chunk by chunk).
 *
 * It speaks exactly what `fastifyTRPCPlugin` speaks for the calls our clients make (the web's
 * httpBatchLink, the ops CLI's and the tests' httpLink): the same URLs (`/trpc/a.b,c.d?batch=1
 * &input=…`), GET for queries and POST for mutations, the same envelopes (`{result:{data}}`,
 * `{error:{message,code,data}}` through the router's errorFormatter), the same statuses
 * (getHTTPStatusCode: the one status of every answer, 207 when a batch's differ) and headers
 * (`content-type: application/json`, `vary: trpc-accept, accept`). The procedure is resolved with
 * tRPC's own getProcedureAtPath and called directly; the error shapes come from tRPC's own
 * getErrorShape, so the project's errorFormatter applies unchanged. The context is made once per
 * request, for every call of a batch.
 *
 * A query may declare its answer to every caller without a credential (`meta.anonymousAnswer`,
 * trpc.ts): for such a caller (the app's `presentsNoCredential`) asking without an input, the
 * answer is sent as it is, with no context made and no procedure called; the route's hooks
 * (request id, security and cache headers, CORS, the request log) run as for any answer.
 *
 * Anything else goes to the stock handler, inside this same route, so it behaves as before:
 * subscriptions (server-sent events), streamed batches (`application/jsonl`), form data and
 * octet-stream inputs, HEAD and other methods, mixed procedure types in one batch, connection
 * params and any path or URL this code does not read the same way tRPC does.
 *
 * The conformance test (trpc-lean.int.test.ts) replays the web client's and the ops CLI's calls
 * against this path and the stock plugin and compares status, headers and body byte for byte.
 */
import type { AnyTRPCRouter } from '@trpc/server';
import { type FastifyHandlerOptions, fastifyRequestHandler } from '@trpc/server/adapters/fastify';
import { getHTTPStatusCode } from '@trpc/server/http';
import {
  defaultTransformer,
  getErrorShape,
  getProcedureAtPath,
  getTRPCErrorFromUnknown,
  isAsyncIterable,
  isObject,
  isPromise,
  TRPCError,
  transformTRPCResponse,
} from '@trpc/server/unstable-core-do-not-import';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Which path serves /trpc: the lean route (default) or tRPC's stock Fastify plugin. */
export type TrpcPath = 'lean' | 'stock';

export type LeanTrpcOptions<TRouter extends AnyTRPCRouter> = FastifyHandlerOptions<
  TRouter,
  FastifyRequest,
  FastifyReply
>;

type ProcedureType = 'query' | 'mutation' | 'subscription';

interface CallableProcedure {
  (opts: {
    path: string;
    getRawInput: () => Promise<unknown>;
    ctx: unknown;
    type: ProcedureType;
    signal: AbortSignal | undefined;
    batchIndex: number;
  }): Promise<unknown>;
  _def: { type: ProcedureType };
}

type CallResult = readonly [TRPCError, undefined] | readonly [undefined, unknown];

const METHOD_OF: Record<'query' | 'mutation', string> = { query: 'GET', mutation: 'POST' };
const VARY = 'trpc-accept, accept';
/** A URL without a query string: nothing to read (never written to). */
const NO_QUERY = new URLSearchParams();

/**
 * tRPC's answer as bytes: Fastify would add `; charset=utf-8` to a string's JSON content type,
 * which tRPC's answer does not carry; and bytes go out with a Content-Length.
 */
function sendJson(reply: FastifyReply, status: number, body: Buffer) {
  return reply.code(status).header('vary', VARY).header('content-type', 'application/json').send(body);
}

/** tRPC's getAcceptHeader, on Node's headers. */
function acceptOf(request: FastifyRequest): string | null {
  const trpcAccept = request.headers['trpc-accept'];
  if (trpcAccept !== undefined) return Array.isArray(trpcAccept) ? trpcAccept.join(', ') : trpcAccept;
  const accept = request.headers.accept;
  return accept?.split(',').some((part) => part.trim() === 'application/jsonl') ? 'application/jsonl' : null;
}

/** tRPC's isDataStream: an answer only a streaming link can carry. */
function isDataStream(value: unknown): boolean {
  if (!isObject(value)) return false;
  if (isAsyncIterable(value)) return true;
  const values = Object.values(value);
  return values.some(isPromise) || values.some(isAsyncIterable);
}

/** How many requests each path answered (the conformance test checks the lean one did). */
export interface TrpcPathStats {
  path: TrpcPath;
  /** Answered by the lean route itself. */
  lean: number;
  /** Calls answered with their procedure's declared anonymous answer, without calling it. */
  anonymous: number;
  /** Handed to the stock handler (subscriptions, streams, form data, other methods…). */
  stock: number;
}

/**
 * Registers `/trpc/:path` (under the scope's prefix) on the lean path, falling back to the stock
 * handler for whatever the lean path does not serve itself.
 */
export async function registerLeanTrpc<TRouter extends AnyTRPCRouter>(
  scope: FastifyInstance,
  trpcOptions: LeanTrpcOptions<TRouter>,
  stats: TrpcPathStats = { path: 'lean', lean: 0, stock: 0, anonymous: 0 },
  /** Whether a request presents no credential, so a declared anonymous answer is its answer. */
  presentsNoCredential: (request: FastifyRequest) => boolean = () => false,
): Promise<void> {
  const { router, createContext, onError } = trpcOptions;
  const config = router._def._config;
  const deserialize = (value: unknown) => config.transformer.input.deserialize(value);
  // tRPC's default transformer changes nothing: its answers need no copy on the way out.
  const serialize = (json: unknown): Buffer =>
    Buffer.from(
      JSON.stringify(
        config.transformer === defaultTransformer ? json : transformTRPCResponse(config, json as never),
      ),
    );
  const anonymousAnswers = declaredAnonymousAnswers(router);
  /** A single call's whole answer for each declared anonymous answer, serialized once. */
  const anonymousBodies = new Map<unknown, Buffer>();
  for (const [procedure, answer] of anonymousAnswers) {
    anonymousBodies.set(procedure, serialize({ result: { data: answer } }));
  }

  // The same body parsers as the stock plugin: tRPC reads the JSON text itself (its own errors
  // for bad JSON), and form data reaches the stock handler as the raw stream.
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    done(null, body);
  });
  scope.removeContentTypeParser('multipart/form-data');
  scope.addContentTypeParser('multipart/form-data', {}, (_request, body, done) => {
    done(null, body);
  });

  const stock = (request: FastifyRequest<{ Params: { path: string } }>, reply: FastifyReply) => {
    stats.stock += 1;
    return fastifyRequestHandler({ ...trpcOptions, req: request, res: reply, path: request.params.path });
  };

  scope.all<{ Params: { path: string } }>('/:path', async (request, reply) => {
    const method = request.method;
    if (method !== 'GET' && method !== 'POST') return stock(request, reply);
    const contentType = request.headers['content-type'];
    if (method === 'POST') {
      if (!contentType?.startsWith('application/json')) return stock(request, reply);
    } else if (
      contentType?.startsWith('multipart/form-data') ||
      contentType?.startsWith('application/octet-stream')
    ) {
      return stock(request, reply);
    }
    if (acceptOf(request) === 'application/jsonl') return stock(request, reply);

    const url = request.url;
    if (url.includes('#')) return stock(request, reply);
    const queryAt = url.indexOf('?');
    const searchParams = queryAt === -1 ? NO_QUERY : new URLSearchParams(url.slice(queryAt + 1));
    if (searchParams.has('connectionParams')) return stock(request, reply);
    let path: string;
    try {
      // tRPC decodes the (already decoded) path parameter once more.
      path = decodeURIComponent(request.params.path);
    } catch {
      return stock(request, reply);
    }

    const isBatchCall = searchParams.get('batch') === '1';
    const paths = isBatchCall ? path.split(',') : [path];
    const procedures: (CallableProcedure | null)[] = [];
    for (const procedurePath of paths) {
      // tRPC's getProcedureAtPath, without a promise when the procedure is already loaded.
      const loaded = (router._def.procedures as Record<string, unknown>)[procedurePath];
      procedures.push(
        (loaded ?? (await getProcedureAtPath(router, procedurePath))) as CallableProcedure | null,
      );
    }
    let type: 'query' | 'mutation' | 'unknown' = 'unknown';
    for (const procedure of procedures) {
      if (!procedure) continue;
      const procedureType = procedure._def.type;
      // Server-sent events, and tRPC's own refusal of a mixed batch: the stock handler's.
      if (procedureType === 'subscription') return stock(request, reply);
      if (type === 'unknown') type = procedureType;
      else if (type !== procedureType) return stock(request, reply);
    }
    stats.lean += 1;

    // One call of a declared anonymous answer, without an input or a credential: its bytes.
    if (!isBatchCall && method === 'GET' && !searchParams.get('input')) {
      const body = anonymousBodies.get(procedures[0]);
      if (body && presentsNoCredential(request)) {
        stats.anonymous += 1;
        return sendJson(reply, 200, body);
      }
    }

    // The inputs, read once and only when a procedure asks (tRPC's memo: one error for all).
    let inputs: { ok: true; value: Record<number, unknown> } | { ok: false; error: TRPCError } | undefined;
    const readInputs = (): Record<number, unknown> => {
      if (!inputs) {
        try {
          inputs = { ok: true, value: parseInputs() };
        } catch (cause) {
          inputs = {
            ok: false,
            error:
              cause instanceof TRPCError
                ? cause
                : new TRPCError({
                    code: 'BAD_REQUEST',
                    message: cause instanceof Error ? cause.message : 'Invalid input',
                    cause,
                  }),
          };
        }
      }
      if (!inputs.ok) throw inputs.error;
      return inputs.value;
    };
    const parseInputs = (): Record<number, unknown> => {
      let raw: unknown;
      if (method === 'GET') {
        const queryInput = searchParams.get('input');
        if (queryInput) raw = JSON.parse(queryInput);
      } else {
        const body = request.body;
        const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
        // Request.json() decodes UTF-8 without a byte order mark.
        raw = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
      }
      const result: Record<number, unknown> = Object.create(null);
      if (raw === undefined) return result;
      if (!isBatchCall) {
        result[0] = deserialize(raw);
        return result;
      }
      if (!isObject(raw)) {
        throw new TRPCError({
          code: 'BAD_REQUEST',
          message: '"input" needs to be an object when doing a batch call',
        });
      }
      for (const index of paths.keys()) {
        const input = (raw as Record<number, unknown>)[index];
        if (input !== undefined) result[index] = deserialize(input);
      }
      return result;
    };
    const inputOf = (index: number) => (inputs?.ok ? inputs.value[index] : undefined);

    // Declared anonymous answers: a GET without a credential, and without an input for the call.
    let constants: (CallResult | undefined)[] | undefined;
    if (method === 'GET' && procedures.some((procedure) => procedure && anonymousAnswers.has(procedure))) {
      if (presentsNoCredential(request)) {
        let given: Record<number, unknown> | undefined;
        try {
          given = readInputs();
        } catch {
          // The calls report the bad input themselves.
        }
        if (given) {
          constants = procedures.map((procedure, index) =>
            procedure && anonymousAnswers.has(procedure) && given[index] === undefined
              ? [undefined, anonymousAnswers.get(procedure)]
              : undefined,
          );
        }
      }
    }

    // The context, once for the whole batch, unless every call has its answer already.
    let ctx: unknown;
    let ctxError: TRPCError | undefined;
    if (!constants?.every((constant) => constant !== undefined)) {
      try {
        ctx = await createContext?.({ req: request, res: reply, info: undefined as never });
      } catch (cause) {
        ctxError = getTRPCErrorFromUnknown(cause);
      }
    }

    const call = async (index: number): Promise<CallResult> => {
      const constant = constants?.[index];
      if (constant) {
        stats.anonymous += 1;
        return constant;
      }
      const procedure = procedures[index];
      const procedurePath = paths[index] as string;
      try {
        if (!procedure) {
          throw new TRPCError({
            code: 'NOT_FOUND',
            message: `No procedure found on path "${procedurePath}"`,
          });
        }
        const procedureType = procedure._def.type as 'query' | 'mutation';
        if (METHOD_OF[procedureType] !== method) {
          throw new TRPCError({
            code: 'METHOD_NOT_SUPPORTED',
            message: `Unsupported ${method}-request to ${procedureType} procedure at path "${procedurePath}"`,
          });
        }
        if (ctxError) throw ctxError;
        const data = await procedure({
          path: procedurePath,
          getRawInput: async () => readInputs()[index],
          ctx,
          type: procedureType,
          signal: undefined,
          batchIndex: index,
        });
        return [undefined, data];
      } catch (cause) {
        const error = getTRPCErrorFromUnknown(cause);
        onError?.({
          error,
          path: procedurePath,
          input: inputOf(index),
          ctx: ctx as never,
          type: procedure?._def.type ?? 'unknown',
          req: request,
        });
        return [error, undefined];
      }
    };

    const send = (status: number, json: unknown) => sendJson(reply, status, serialize(json));

    const errorShape = (error: TRPCError, index: number | undefined, shapeType: string) =>
      getErrorShape({
        config,
        ctx: ctx as never,
        error,
        input: index === undefined ? undefined : inputOf(index),
        path: index === undefined ? undefined : paths[index],
        type: shapeType as 'query',
      });

    const results = await Promise.all(paths.map((_path, index) => call(index)));

    if (!isBatchCall) {
      const [error, data] = results[0] as CallResult;
      if (!error && isDataStream(data)) {
        // tRPC's refusal of a stream-like answer outside a streaming link (its outer catch).
        const streamError = new TRPCError({
          code: 'UNSUPPORTED_MEDIA_TYPE',
          message: 'Cannot use stream-like response in non-streaming request - use httpBatchStreamLink',
        });
        onError?.({
          error: streamError,
          path: undefined,
          input: undefined,
          ctx: ctx as never,
          type,
          req: request,
        });
        const json = { error: errorShape(streamError, undefined, type) };
        return send(getHTTPStatusCode(json), json);
      }
      const json = error ? { error: errorShape(error, 0, type) } : { result: { data } };
      return send(getHTTPStatusCode([json]), json);
    }

    const json = results.map(([error, data], index) => {
      const procedureType = procedures[index]?._def.type ?? 'unknown';
      if (error) return { error: errorShape(error, index, procedureType) };
      if (isDataStream(data)) {
        const streamError = new TRPCError({
          code: 'UNSUPPORTED_MEDIA_TYPE',
          message: 'Cannot use stream-like response in non-streaming request - use httpBatchStreamLink',
        });
        return { error: errorShape(streamError, index, procedureType) };
      }
      return { result: { data } };
    });
    return send(getHTTPStatusCode(json), json);
  });
}

/**
 * The queries of the router that declare an anonymous answer (meta.anonymousAnswer), by
 * procedure. Declared on anything but a query, it is a mistake: refused at start.
 */
function declaredAnonymousAnswers(router: AnyTRPCRouter): Map<unknown, unknown> {
  const answers = new Map<unknown, unknown>();
  const procedures = router._def.procedures as Record<
    string,
    { _def: { type: ProcedureType; meta?: { anonymousAnswer?: unknown } } }
  >;
  for (const [path, procedure] of Object.entries(procedures)) {
    const answer = procedure._def.meta?.anonymousAnswer;
    if (answer === undefined) continue;
    if (procedure._def.type !== 'query') {
      throw new Error(
        `${path}: only a query may declare an anonymous answer (it is a ${procedure._def.type})`,
      );
    }
    answers.set(procedure, answer);
  }
  return answers;
}
