/**
 * The parcels' raw routes (issue 37):
 *
 *   POST /webhooks/carriers/:provider   the carrier's scans. Public: the carrier's signature over
 *                                       the exact body received is the authority. A bad
 *                                       signature is 400 and nothing is written; a repeat, a scan
 *                                       out of order and a scan for a parcel not known yet are
 *                                       200 (recordCarrierWebhook keeps and settles them).
 *   GET /labels/:shipmentId/a4.pdf      the label documents, as the carrier gave them, to the
 *   GET /labels/:shipmentId/thermal_4x6.pdf   shipment's sender (the seller for the parcel to the
 *                                       buyer, the buyer for a return) or staff; anyone else 404.
 *   GET /labels/:shipmentId/qr.svg      the printer-free drop-off QR code, to the same people.
 */
import { hasStaffRole, LABELS_PATH, type ShipmentDirection } from '@reshelf/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '../../db/index.ts';
import { AppError, ERRORS } from '../../errors.ts';
import { callerOf, requireAccess, rolesOf } from '../../http/access.ts';
import {
  CARRIER_WEBHOOK_PATH,
  type CarrierProvider,
  CarrierSignatureError,
} from '../../platform/carriers/index.ts';
import { recordCarrierWebhook } from './carrier-webhooks.ts';
import { senderSide, sideOfOrder } from './parties.ts';
import { qrSvg } from './qr.ts';

const NO_LABEL = 'We could not find that label.';

const fileSchema = z.enum(['a4.pdf', 'thermal_4x6.pdf', 'qr.svg'], {
  error: 'Choose a4.pdf, thermal_4x6.pdf or qr.svg',
});

export async function registerParcelRoutes(
  app: FastifyInstance,
  deps: { db: Database; carriers: CarrierProvider },
): Promise<void> {
  await app.register(async (scope) => {
    // The signature is computed over the exact bytes received.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 256 * 1024 }, (_request, body, done) =>
      done(null, body),
    );
    scope.post<{ Params: { provider: string } }>(
      `${CARRIER_WEBHOOK_PATH}/:provider`,
      requireAccess('public'),
      async (request, reply) => {
        if (request.params.provider !== deps.carriers.name) {
          return reply
            .code(404)
            .send({ error: ERRORS.NOT_FOUND.title, message: `No ${request.params.provider} carrier here` });
        }
        let webhook: ReturnType<CarrierProvider['verifyWebhook']>;
        try {
          webhook = deps.carriers.verifyWebhook(String(request.body ?? ''), request.headers);
        } catch (error) {
          const message =
            error instanceof CarrierSignatureError ? error.message : 'The webhook body could not be read';
          return reply.code(400).send({ error: ERRORS.BAD_INPUT.title, message });
        }
        const outcome = await recordCarrierWebhook(deps.db, deps.carriers.name, webhook);
        request.log.info({ eventId: webhook.eventId, outcome }, 'carrier webhook recorded');
        return reply.send({ received: true, outcome });
      },
    );
  });

  app.get<{ Params: { shipmentId: string; file: string } }>(
    `${LABELS_PATH}/:shipmentId/:file`,
    requireAccess('authed'),
    async (request, reply) => {
      const file = fileSchema.safeParse(request.params.file);
      const id = z.string().uuid().safeParse(request.params.shipmentId);
      if (!file.success || !id.success) throw new AppError('NOT_FOUND', NO_LABEL);
      const shipment = await deps.db
        .selectFrom('shipments as s')
        .innerJoin('orders as o', 'o.id', 's.order_id')
        .select(['s.id', 's.order_id', 's.direction', 's.tracking_ref', 's.qr_code', 'o.reference'])
        .where('s.id', '=', id.data)
        .executeTakeFirst();
      const caller = callerOf(request);
      if (!shipment || !(await maySee(deps.db, caller.userId, shipment))) {
        throw new AppError('NOT_FOUND', NO_LABEL);
      }
      if (file.data === 'qr.svg') {
        if (!shipment.qr_code) throw new AppError('NOT_FOUND', NO_LABEL);
        return reply
          .header('content-type', 'image/svg+xml')
          .header('cache-control', 'private, no-store')
          .send(qrSvg(shipment.qr_code));
      }
      const format = file.data === 'a4.pdf' ? 'a4' : 'thermal_4x6';
      const label = await deps.db
        .selectFrom('shipment_labels')
        .select('pdf')
        .where('shipment_id', '=', shipment.id)
        .where('format', '=', format)
        .executeTakeFirst();
      if (!label) throw new AppError('NOT_FOUND', NO_LABEL);
      return reply
        .header('content-type', 'application/pdf')
        .header(
          'content-disposition',
          `attachment; filename="reshelf-label-${shipment.reference}-${format}.pdf"`,
        )
        .header('cache-control', 'private, no-store')
        .send(Buffer.from(label.pdf));
    },
  );
}

/** The shipment's sender, or staff. */
async function maySee(
  db: Database,
  userId: string,
  shipment: { order_id: string; direction: string },
): Promise<boolean> {
  const side = await sideOfOrder(db, userId, shipment.order_id);
  if (side && side === senderSide(shipment.direction as ShipmentDirection)) return true;
  return hasStaffRole(await rolesOf(db, userId));
}
