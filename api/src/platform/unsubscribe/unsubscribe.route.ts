/**
 * One-click unsubscribe (RFC 8058): a non-essential email's List-Unsubscribe header names
 * PUBLIC_ORIGIN/api/unsubscribe?u=…&l=…&s=… and List-Unsubscribe-Post says
 * "List-Unsubscribe=One-Click". A mail client's "Unsubscribe" button POSTs there, from its
 * own servers, without cookies or our client header: the signed link is the authority, so
 * this route is outside the tRPC scope and its CSRF check: requireAccess('public'). A GET (someone opening the address)
 * never unsubscribes: it leads to the /unsubscribe page, which asks first.
 */
import { unsubscribeInputSchema } from '@reshelf/contracts';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/index.ts';
import { AppError, ERRORS } from '../../errors.ts';
import { requireAccess } from '../../http/access.ts';
import type { Secrets } from '../../secrets.ts';
import { confirmUnsubscribe } from './unsubscribe.service.ts';

export async function registerUnsubscribeRoutes(
  app: FastifyInstance,
  deps: { db: Database; secrets: Secrets },
): Promise<void> {
  await app.register(async (scope) => {
    // Mail clients post a form (urlencoded or multipart) holding "List-Unsubscribe=One-Click";
    // the link's query says everything, so the body is read and not needed.
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_request, body, done) =>
      done(null, body),
    );

    scope.get('/api/unsubscribe', requireAccess('public'), async (request, reply) => {
      const query = new URLSearchParams(request.query as Record<string, string>);
      return reply.code(303).header('location', `/unsubscribe?${query.toString()}`).send();
    });

    scope.post('/api/unsubscribe', requireAccess('public'), async (request, reply) => {
      const input = unsubscribeInputSchema.safeParse(request.query);
      if (!input.success) {
        return reply
          .code(400)
          .type('text/plain; charset=utf-8')
          .send('This unsubscribe link is incomplete: use the whole link from the email.');
      }
      try {
        const status = await confirmUnsubscribe(deps.db, deps.secrets, input.data);
        return reply
          .code(200)
          .type('text/plain; charset=utf-8')
          .send(`Unsubscribed ${status.recipient} from ${status.listLabel}.`);
      } catch (error) {
        // Mail clients read text: the status from the error table, the message as plain text.
        if (error instanceof AppError) {
          return reply.code(ERRORS[error.code].status).type('text/plain; charset=utf-8').send(error.message);
        }
        throw error;
      }
    });
  });
}
