/**
 * The test carrier's pages (issue 37), registered only when the carrier is the test carrier
 * (never in production, which refuses CARRIERS=test: there these addresses are 404s):
 *
 *   GET  /test-carrier                     its parcels (newest first: reference, tracking number,
 *                                          status) with a button for each of the six scans
 *   POST /test-carrier/scan                a scan: a form from that page (then back to it), or
 *                                          JSON { trackingRef, status, occurredAt? } (tests),
 *                                          answered with the webhook's own answer. Either way
 *                                          the carrier signs the scan and POSTs it over HTTP to
 *                                          the app's webhook address, /webhooks/carriers/test,
 *                                          exactly as a real carrier would
 *   GET  /test-carrier/track/:trackingRef  the parcel's tracking page (its scans), the
 *                                          trackingUrl of every test label
 *
 * Like the test payment page, these are public: the test carrier is a stand-in for someone
 * else's website, and its scans carry no authority but their signature.
 */
import {
  CARRIER_NETWORK_LABELS,
  SCAN_STATUSES,
  type ScanStatus,
  SHIPMENT_STATUS_TEXT,
} from '@reshelf/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '../../db/index.ts';
import { ERRORS } from '../../errors.ts';
import { requireAccess } from '../../http/access.ts';
import type { CarrierProvider } from './port.ts';
import { TEST_CARRIER_NAME, TEST_CARRIER_TRACK_PATH, type TestCarrier } from './test-carrier.ts';

/** Where carriers post their webhooks: `${CARRIER_WEBHOOK_PATH}/<provider name>`. */
export const CARRIER_WEBHOOK_PATH = '/webhooks/carriers';
export const TEST_CARRIER_PAGE = '/test-carrier';

/** The scan page's buttons, in the order a parcel meets them. */
export const SCAN_BUTTONS: Record<ScanStatus, string> = {
  accepted: 'Accepted',
  in_transit: 'In transit',
  out_for_delivery: 'Out for delivery',
  delivered: 'Delivered',
  delivery_failed: 'Delivery failed',
  returned_to_sender: 'Returned to sender',
};

/** Where the test carrier says a scan happened. */
const SCAN_LOCATIONS: Record<ScanStatus, string> = {
  accepted: 'Drop-off point',
  in_transit: 'National sorting hub',
  out_for_delivery: 'Local delivery office',
  delivered: 'Delivered',
  delivery_failed: 'Local delivery office',
  returned_to_sender: 'Returns centre',
};

const scanInputSchema = z.object({
  trackingRef: z
    .string({ error: 'Give the tracking number of the parcel to scan' })
    .trim()
    .min(1, 'Give the tracking number of the parcel to scan')
    .max(60, 'A tracking number is at most 60 characters'),
  status: z.enum(SCAN_STATUSES, { error: `The scan must be one of: ${SCAN_STATUSES.join(', ')}` }),
  occurredAt: z.iso
    .datetime({ offset: true, error: 'occurredAt must be an ISO date and time, e.g. 2026-12-21T10:00:00Z' })
    .optional(),
});

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

const STYLE = `body{margin:0;font-family:system-ui,sans-serif;background:#f4f1ec;color:#211c17}
main{max-width:1100px;margin:0 auto;padding:24px 16px}
.badge{display:inline-block;background:#fde68a;color:#78350f;border-radius:999px;padding:4px 10px;font-size:12px;font-weight:700;letter-spacing:.04em}
h1{font-size:24px;margin:12px 0 4px}p{color:#6b6258}
.parcel{background:#fff;border-radius:12px;box-shadow:0 4px 16px rgba(0,0,0,.06);padding:16px;margin:12px 0}
.parcel h2{font-size:16px;margin:0 0 4px}.meta{font-size:14px;color:#6b6258;margin:0 0 10px;overflow-wrap:anywhere}
.status{font-weight:700;color:#211c17}.scans{display:flex;flex-wrap:wrap;gap:8px}form{margin:0}
button{padding:10px 12px;border-radius:8px;border:1px solid #d6cfc4;background:#fff;font-size:14px;font-weight:600;cursor:pointer;min-height:44px}
button.delivered{background:#166534;border-color:#166534;color:#fff}button.delivery_failed,button.returned_to_sender{color:#991b1b}
.notice{background:#ecfdf5;border:1px solid #a7f3d0;border-radius:8px;padding:10px 12px;color:#065f46}
.notice.bad{background:#fef2f2;border-color:#fecaca;color:#991b1b}
ol{padding-left:20px}li{margin:8px 0}time{color:#6b6258;font-size:14px;display:block}`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Reshelf test carrier</title><style>${STYLE}</style></head>
<body><main><span class="badge">TEST CARRIER · NO REAL PARCELS</span>${body}</main></body></html>`;
}

export interface TestCarrierRouteDeps {
  db: Database;
  carriers: CarrierProvider;
}

export async function registerTestCarrierRoutes(
  app: FastifyInstance,
  deps: TestCarrierRouteDeps,
): Promise<void> {
  if (deps.carriers.name !== TEST_CARRIER_NAME) return;
  const carrier = deps.carriers as TestCarrier;
  const webhookPath = `${CARRIER_WEBHOOK_PATH}/${TEST_CARRIER_NAME}`;

  /**
   * Posts a signed scan to the app's webhook address over HTTP, as a carrier does: to the
   * address this server listens on (PUBLIC_ORIGIN may be a proxy it cannot reach from inside).
   * A server that is not listening (tests that only inject) is sent it in-process.
   */
  const deliver = async (signed: { body: string; headers: Record<string, string> }) => {
    const address = app.server.address();
    if (address && typeof address === 'object') {
      const host =
        address.family === 'IPv6'
          ? `[${address.address === '::' ? '::1' : address.address}]`
          : address.address === '0.0.0.0'
            ? '127.0.0.1'
            : address.address;
      const response = await fetch(`http://${host}:${address.port}${webhookPath}`, {
        method: 'POST',
        headers: signed.headers,
        body: signed.body,
        signal: AbortSignal.timeout(10_000),
      });
      return { statusCode: response.status, body: await response.text() };
    }
    const response = await app.inject({
      method: 'POST',
      url: webhookPath,
      headers: signed.headers,
      payload: signed.body,
    });
    return { statusCode: response.statusCode, body: response.body };
  };

  await app.register(async (scope) => {
    // The page's forms arrive url-encoded; tests send JSON.
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4096 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );

    scope.get<{ Querystring: Record<string, string | undefined> }>(
      TEST_CARRIER_PAGE,
      requireAccess('public'),
      async (request, reply) => {
        const parcels = await deps.db
          .selectFrom('shipments')
          .innerJoin('orders', 'orders.id', 'shipments.order_id')
          .select([
            'shipments.id',
            'shipments.direction',
            'shipments.network',
            'shipments.method',
            'shipments.status',
            'shipments.tracking_ref',
            'shipments.created_at',
            'orders.reference',
          ])
          .where('shipments.provider', '=', TEST_CARRIER_NAME)
          .where('shipments.tracking_ref', 'is not', null)
          .orderBy('shipments.created_at', 'desc')
          .orderBy('shipments.id', 'desc')
          .limit(100)
          .execute();
        const { sent, answer, trackingRef } = request.query;
        const notice =
          sent && trackingRef
            ? `<p class="notice${answer === '200' ? '' : ' bad'}" role="status" data-testid="notice">Sent “${escapeHtml(
                SCAN_BUTTONS[sent as ScanStatus] ?? sent,
              )}” for ${escapeHtml(trackingRef)}: the webhook answered ${escapeHtml(answer ?? '?')}.</p>`
            : '';
        const rows = parcels
          .map((parcel) => {
            const ref = parcel.tracking_ref ?? '';
            const buttons = SCAN_STATUSES.map(
              (status) =>
                `<form method="post" action="${TEST_CARRIER_PAGE}/scan"><input type="hidden" name="trackingRef" value="${escapeHtml(ref)}"><input type="hidden" name="status" value="${status}"><button type="submit" class="${status}">${escapeHtml(SCAN_BUTTONS[status])}</button></form>`,
            ).join('');
            return `<section class="parcel" data-tracking-ref="${escapeHtml(ref)}">
<h2>${escapeHtml(parcel.reference)}${parcel.direction === 'return' ? ' (return)' : ''}</h2>
<p class="meta"><a href="${TEST_CARRIER_TRACK_PATH}/${encodeURIComponent(ref)}">${escapeHtml(ref)}</a> · ${escapeHtml(
              CARRIER_NETWORK_LABELS[parcel.network as keyof typeof CARRIER_NETWORK_LABELS] ?? parcel.network,
            )} · <span class="status">${escapeHtml(
              SHIPMENT_STATUS_TEXT[parcel.status as keyof typeof SHIPMENT_STATUS_TEXT] ?? parcel.status,
            )}</span></p>
<div class="scans">${buttons}</div></section>`;
          })
          .join('\n');
        return reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(
            page(
              'Parcels',
              `<h1>Test carrier: parcels</h1>
<p>Each button sends a signed scan to Reshelf's carrier webhook, as a real carrier would.</p>
${notice}${rows || '<p>No parcels yet: buy a label for an order first.</p>'}`,
            ),
          );
      },
    );

    scope.post(`${TEST_CARRIER_PAGE}/scan`, requireAccess('public'), async (request, reply) => {
      const form = request.headers['content-type']?.startsWith('application/x-www-form-urlencoded') ?? false;
      const parsed = scanInputSchema.safeParse(request.body ?? {});
      if (!parsed.success) {
        return reply.code(400).send({
          error: ERRORS.BAD_INPUT.title,
          message: parsed.error.issues.map((issue) => issue.message).join('; '),
        });
      }
      const { trackingRef, status, occurredAt } = parsed.data;
      const shipment = await deps.db
        .selectFrom('shipments')
        .select(['provider_ref', 'drop_off_point'])
        .where('provider', '=', TEST_CARRIER_NAME)
        .where('tracking_ref', '=', trackingRef)
        .executeTakeFirst();
      const point = shipment?.drop_off_point as { name?: string } | null | undefined;
      const signed = carrier.signedScan({
        trackingRef,
        providerRef: shipment?.provider_ref ?? null,
        status,
        ...(occurredAt ? { occurredAt: new Date(occurredAt) } : {}),
        location: status === 'delivered' && point?.name ? point.name : SCAN_LOCATIONS[status],
      });
      let answer: { statusCode: number; body: string };
      try {
        answer = await deliver(signed);
      } catch (error) {
        request.log.error({ err: error }, 'test carrier webhook delivery failed');
        answer = { statusCode: 502, body: 'The webhook could not be reached' };
      }
      if (form) {
        const query = new URLSearchParams({ sent: status, trackingRef, answer: String(answer.statusCode) });
        return reply.redirect(`${TEST_CARRIER_PAGE}?${query}`, 303);
      }
      let body: unknown = answer.body;
      try {
        body = JSON.parse(answer.body);
      } catch {
        // Not JSON: the text as it came.
      }
      return reply.send({ webhookStatus: answer.statusCode, webhook: body, event: JSON.parse(signed.body) });
    });

    scope.get<{ Params: { trackingRef: string } }>(
      `${TEST_CARRIER_TRACK_PATH}/:trackingRef`,
      requireAccess('public'),
      async (request, reply) => {
        const trackingRef = request.params.trackingRef.slice(0, 60);
        const shipment = await deps.db
          .selectFrom('shipments')
          .select(['id', 'status', 'network', 'method'])
          .where('provider', '=', TEST_CARRIER_NAME)
          .where('tracking_ref', '=', trackingRef)
          .executeTakeFirst();
        if (!shipment) {
          return reply
            .code(404)
            .type('text/html; charset=utf-8')
            .send(
              page(
                'Not found',
                `<h1>No parcel ${escapeHtml(trackingRef)}</h1><p>Check the tracking number.</p>`,
              ),
            );
        }
        const scans = await deps.db
          .selectFrom('shipment_scans')
          .select(['status', 'occurred_at', 'location', 'description'])
          .where('shipment_id', '=', shipment.id)
          .orderBy('occurred_at', 'desc')
          .execute();
        const items = scans
          .map(
            (scan) =>
              `<li><strong>${escapeHtml(SHIPMENT_STATUS_TEXT[scan.status as ScanStatus] ?? scan.status)}</strong>${
                scan.location ? ` · ${escapeHtml(scan.location)}` : ''
              }<time datetime="${scan.occurred_at.toISOString()}">${escapeHtml(
                scan.occurred_at.toLocaleString('en-GB', {
                  timeZone: 'Europe/London',
                  dateStyle: 'medium',
                  timeStyle: 'short',
                }),
              )}</time></li>`,
          )
          .join('');
        return reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(
            page(
              `Tracking ${trackingRef}`,
              `<h1>Tracking ${escapeHtml(trackingRef)}</h1>
<p>${escapeHtml(CARRIER_NETWORK_LABELS[shipment.network as keyof typeof CARRIER_NETWORK_LABELS] ?? shipment.network)} · <span class="status" data-testid="status">${escapeHtml(
                SHIPMENT_STATUS_TEXT[shipment.status as keyof typeof SHIPMENT_STATUS_TEXT] ?? shipment.status,
              )}</span></p>
${items ? `<ol reversed>${items}</ol>` : '<p>No scans yet: the parcel has not been handed to the carrier.</p>'}`,
            ),
          );
      },
    );
  });
}
