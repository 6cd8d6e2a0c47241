/**
 * GET /api/admin/exports/<kind>.csv?from=YYYY-MM-DD&to=YYYY-MM-DD: a staff download, streamed as
 * CSV. A REST route rather than a tRPC procedure so the browser saves the file itself, however
 * large. Access: requireAccess('staff') (http/access.ts: cookie session or bearer token, admin
 * or moderator, the same rule as a staff procedure). Each export is recorded in the audit log
 * (platform/audit) before it streams. Refusals are JSON { error, message }: 400, 401, 403, 404.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { callerOf, requireAccess } from '../../http/access.ts';
import { daySchema } from '../../platform/audit/audit.schemas.ts';
import { recordAudit } from '../../platform/audit/audit.service.ts';
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

export async function registerExportRoutes(app: FastifyInstance, options: { db: Database }): Promise<void> {
  const { db } = options;
  app.get<{ Params: { file: string }; Querystring: Record<string, string> }>(
    `${EXPORTS_PATH}/:file`,
    requireAccess('staff'),
    async (request, reply) => {
      const kind = EXPORT_KINDS.find((candidate) => request.params.file === `${candidate}.csv`);
      if (!kind) {
        throw new AppError(
          'NOT_FOUND',
          'Choose orders.csv, order_items.csv, payouts.csv, listings.csv or revenue.csv.',
        );
      }
      const parsed = querySchema.safeParse(request.query);
      if (!parsed.success) {
        throw new AppError('BAD_INPUT', parsed.error.issues.map((issue) => issue.message).join('; '));
      }
      const period = parsed.data;
      const staff = callerOf(request);
      await recordAudit(db, {
        actorId: staff.userId,
        actorEmail: staff.email,
        requestId: String(request.id),
        action: `export.${kind}`,
        targetType: 'export',
        targetId: kind,
        details: { ...period },
      });
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${exportFileName(kind, period)}"`)
        .header('cache-control', 'no-store')
        .send(exportCsv(db, kind, period));
    },
  );
}
