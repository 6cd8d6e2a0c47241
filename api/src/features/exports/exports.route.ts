/**
 * GET /api/admin/exports/<kind>.csv?from=YYYY-MM-DD&to=YYYY-MM-DD: a staff download (cookie
 * session or bearer token; admin or moderator), streamed as CSV. A REST route rather than a
 * tRPC procedure so the browser saves the file itself, however large. Each export is recorded
 * in the audit log before it streams. Refusals are JSON { error, message }: 400, 401, 403.
 */
import { hasStaffRole } from '@reshelf/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppConfig } from '../../config.ts';
import type { Database } from '../../db/index.ts';
import { infrastructureFailure } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { rolesOf, STAFF_FORBIDDEN_MESSAGE } from '../../trpc.ts';
import { daySchema } from '../audit/audit.router.ts';
import { recordAudit, runInAuditTrail } from '../audit/audit.service.ts';
import { resolveAuth } from '../auth/resolve-auth.ts';
import { EXPORT_KINDS, exportCsv, exportFileName } from './exports.service.ts';

export const EXPORTS_PATH = '/api/admin/exports';
export const MAX_EXPORT_DAYS = 366;

const querySchema = z
  .object({ from: daySchema, to: daySchema })
  .refine((period) => period.from <= period.to, {
    message: 'The start date must be on or before the end date',
  })
  .refine((period) => (Date.parse(period.to) - Date.parse(period.from)) / 86_400_000 < MAX_EXPORT_DAYS, {
    message: `Export at most ${MAX_EXPORT_DAYS} days at a time`,
  });

export async function registerExportRoutes(
  app: FastifyInstance,
  options: { config: AppConfig; db: Database; services: Services },
): Promise<void> {
  const { config, db, services } = options;
  app.get<{ Params: { file: string }; Querystring: Record<string, string> }>(
    `${EXPORTS_PATH}/:file`,
    async (request, reply) => {
      const kind = EXPORT_KINDS.find((candidate) => request.params.file === `${candidate}.csv`);
      if (!kind) {
        return reply.code(404).send({
          error: 'Not Found',
          message: 'Choose orders.csv, payouts.csv, listings.csv or revenue.csv.',
        });
      }
      const auth = await resolveAuth(request, reply, services.identity, config, { suspensions: db });
      if (!auth.claims) {
        return reply.code(401).send({ error: 'Unauthorized', message: 'Please sign in to continue.' });
      }
      let staff = false;
      try {
        staff = hasStaffRole(await rolesOf(db, auth.claims.userId));
      } catch (error) {
        // The database not answering is a 503 (the error handler), not "no permission".
        if (infrastructureFailure(error)) throw error;
        request.log.warn({ err: error }, 'role lookup failed: access denied');
      }
      if (!staff) return reply.code(403).send({ error: 'Forbidden', message: STAFF_FORBIDDEN_MESSAGE });
      const parsed = querySchema.safeParse(request.query);
      if (!parsed.success) {
        const message = parsed.error.issues.map((issue) => issue.message).join('; ');
        return reply.code(400).send({ error: 'Bad Request', message });
      }
      const period = parsed.data;
      const claims = auth.claims;
      await runInAuditTrail(
        { actorId: claims.userId, actorEmail: claims.email, requestId: String(request.id) },
        () =>
          recordAudit(db, {
            action: `export.${kind}`,
            targetType: 'export',
            targetId: kind,
            details: { ...period },
          }),
      );
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${exportFileName(kind, period)}"`)
        .header('cache-control', 'no-store')
        .send(exportCsv(db, kind, period));
    },
  );
}
