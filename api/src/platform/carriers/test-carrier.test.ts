import { LABEL_UNAVAILABLE, SCAN_STATUSES, SHIPMENT_STATUS_TEXT } from '@reshelf/contracts';
import { decodePDFRawStream, PDFDict, PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { createSecrets } from '../../secrets.ts';
import { A4_POINTS, FOLD_GUIDANCE, THERMAL_POINTS } from './labels.ts';
import { CarrierSignatureError, CarrierUnavailableError, type LabelRequest } from './port.ts';
import {
  createTestCarrier,
  s10CheckDigit,
  TEST_CARRIER_OUTAGE_POSTCODE,
  TEST_CARRIER_SIGNATURE_HEADER,
  testTrackingRef,
} from './test-carrier.ts';

const secrets = createSecrets('a-test-secret-that-is-long-enough-for-hkdf-0123');
const carrier = createTestCarrier({ secrets, siteOrigin: 'http://localhost:3000' });

const SHIPMENT = '5b0c5b1e-6f9a-4a43-9d3e-0c3c1d2b7a10';

function request(overrides: Partial<LabelRequest> = {}): LabelRequest {
  return {
    shipmentId: SHIPMENT,
    reference: 'RS-7F3K2',
    from: {
      fullName: 'Ada Seller',
      line1: '3 Mill Lane',
      line2: null,
      town: 'Banbury',
      postcode: 'OX16 5LW',
    },
    to: {
      fullName: 'Bea Buyer',
      line1: '12 Leith Walk',
      line2: 'Flat 2',
      town: 'Edinburgh',
      postcode: 'EH6 5HX',
    },
    method: 'home',
    network: 'royal_mail',
    dropOffPoint: null,
    band: 'large_letter',
    weightG: 420,
    thicknessMm: 22,
    lengthMm: 240,
    widthMm: 170,
    expectedCostMinor: 289,
    ...overrides,
  };
}

/** WinAnsi's characters outside Latin-1 (the standard fonts' encoding). */
const WIN_ANSI: Record<string, string> = {
  '\x80': '€',
  '\x85': '…',
  '\x91': '‘',
  '\x92': '’',
  '\x93': '“',
  '\x94': '”',
  '\x95': '•',
  '\x96': '–',
  '\x97': '—',
};

/** The text drawn in a PDF: every stream inflated, its shown hex strings decoded, one per line. */
async function drawnText(bytes: Uint8Array): Promise<string> {
  const document = await PDFDocument.load(bytes);
  const lines: string[] = [];
  for (const [, object] of document.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream)) continue;
    if (object.dict.get(PDFName.of('Subtype'))?.toString() === '/Image') continue;
    const content = Buffer.from(decodePDFRawStream(object).decode()).toString('latin1');
    for (const match of content.matchAll(/<([0-9A-Fa-f]+)> Tj/g)) {
      const text = Buffer.from(match[1]!, 'hex').toString('latin1');
      lines.push(text.replace(/[\x80-\x9f]/g, (byte) => WIN_ANSI[byte] ?? byte));
    }
  }
  return lines.join('\n');
}

async function images(bytes: Uint8Array) {
  const document = await PDFDocument.load(bytes);
  const page = document.getPage(0);
  const xObjects = page.node.Resources()?.lookup(PDFName.of('XObject'), PDFDict);
  const found: { width: number; height: number }[] = [];
  for (const [, value] of xObjects?.entries() ?? []) {
    const stream = document.context.lookup(value);
    if (stream instanceof PDFRawStream && stream.dict.get(PDFName.of('Subtype'))?.toString() === '/Image') {
      found.push({
        width: Number(stream.dict.get(PDFName.of('Width'))?.toString()),
        height: Number(stream.dict.get(PDFName.of('Height'))?.toString()),
      });
    }
  }
  return { document, page, found };
}

describe('the test carrier', () => {
  it('makes tracking numbers shaped like each network’s, the same for the same shipment', () => {
    const royalMail = testTrackingRef('royal_mail', SHIPMENT);
    expect(royalMail).toMatch(/^[A-Z]{2}\d{9}GB$/);
    expect(Number(royalMail[10])).toBe(s10CheckDigit(royalMail.slice(2, 10)));
    expect(testTrackingRef('inpost', SHIPMENT)).toMatch(/^\d{24}$/);
    expect(testTrackingRef('evri', SHIPMENT)).toMatch(/^H[0-9A-Z]{15}$/);
    expect(testTrackingRef('royal_mail', SHIPMENT)).toBe(royalMail);
    const others = new Set(
      Array.from({ length: 500 }, (_, index) =>
        testTrackingRef('royal_mail', `${SHIPMENT.slice(0, -3)}${String(index).padStart(3, '0')}`),
      ),
    );
    expect(others.size).toBe(500);
    // The UPU S10 example, AA473124829GB: 47312482 has check digit 9.
    expect(s10CheckDigit('47312482')).toBe(9);
  });

  it('buys a home label: tracking page, QR payload, the rate card price, and the same answer on a retry', async () => {
    const label = await carrier.buyLabel(request());
    expect(label.trackingUrl).toBe(`http://localhost:3000/test-carrier/track/${label.trackingRef}`);
    expect(label.providerRef).toBe(`tc_${SHIPMENT}`);
    expect(label.qrCode).toContain(label.trackingRef);
    expect(label.costMinor).toBe(289);
    const again = await carrier.buyLabel(request());
    expect(again.trackingRef).toBe(label.trackingRef);
    expect(Buffer.from(again.labels.a4).equals(Buffer.from(label.labels.a4))).toBe(true);
  });

  it('draws real A4 and 4×6 PDFs with both addresses, the band, weight, reference, network, barcode and QR code', async () => {
    const label = await carrier.buyLabel(request());
    for (const [format, bytes, size] of [
      ['a4', label.labels.a4, A4_POINTS],
      ['thermal', label.labels.thermal_4x6, THERMAL_POINTS],
    ] as const) {
      expect(Buffer.from(bytes).subarray(0, 5).toString(), format).toBe('%PDF-');
      const { document, page, found } = await images(bytes);
      expect(document.getPageCount()).toBe(1);
      expect(page.getSize()).toEqual({
        width: expect.closeTo(size.width, 1),
        height: expect.closeTo(size.height, 1),
      });
      // Two images: the Code 128 barcode (wide and short) and the QR code (square).
      expect(found).toHaveLength(2);
      expect(found.some((image) => image.width > image.height * 2)).toBe(true);
      expect(found.some((image) => image.width === image.height)).toBe(true);
      const text = await drawnText(bytes);
      for (const expected of [
        label.trackingRef,
        'Order RS-7F3K2',
        'Royal Mail Tracked 48',
        'Large Letter',
        '420 g',
        'Bea Buyer',
        '12 Leith Walk',
        'Flat 2',
        'EH6 5HX',
        'Ada Seller',
        'OX16 5LW',
      ])
        expect(text, `${format}: ${expected}`).toContain(expected);
      if (format === 'a4') expect(text.replace(/\n/g, ' ')).toContain(FOLD_GUIDANCE.slice(0, 40));
    }
  });

  it('addresses a drop-off label to the point, for collection by the buyer', async () => {
    const point = (await carrier.dropOffPoints('EH6 5HX', 'small_parcel', 5)).find(
      (p) => p.network === 'inpost',
    )!;
    const label = await carrier.buyLabel(
      request({
        method: 'drop_off',
        network: 'inpost',
        dropOffPoint: point,
        band: 'small_parcel',
        weightG: 1250,
      }),
    );
    expect(label.trackingRef).toMatch(/^\d{24}$/);
    const text = await drawnText(label.labels.thermal_4x6);
    for (const expected of [
      point.name,
      point.addressLine,
      point.postcode,
      'For collection by Bea Buyer',
      'Small Parcel',
      '1.25 kg',
      'InPost',
    ])
      expect(text).toContain(expected);
    expect(text).not.toContain('12 Leith Walk');
  });

  it('fails like an outage when built to, or for the outage postcode', async () => {
    const failing = createTestCarrier({ secrets, siteOrigin: 'http://localhost:3000', failLabels: true });
    await expect(failing.buyLabel(request())).rejects.toThrow(CarrierUnavailableError);
    await expect(failing.buyLabel(request())).rejects.toThrow(LABEL_UNAVAILABLE);
    const outage = carrier.buyLabel(
      request({
        to: { ...request().to, postcode: TEST_CARRIER_OUTAGE_POSTCODE.toLowerCase().replace(' ', '') },
      }),
    );
    await expect(outage).rejects.toMatchObject({
      name: 'CarrierUnavailableError',
      retryable: true,
      message: LABEL_UNAVAILABLE,
    });
  });

  it('answers drop-off points from the directory', async () => {
    const points = await carrier.dropOffPoints('OX16 5LW', 'medium_parcel', 4);
    expect(points).toHaveLength(4);
    expect(points.every((point) => point.kind !== 'locker')).toBe(true);
    expect(await carrier.dropOffPoint(points[0]!.id)).toMatchObject({ id: points[0]!.id });
    expect(await carrier.dropOffPoint('EVRI-NOPE01')).toBeNull();
  });

  it.each(SCAN_STATUSES)('verifies its own signed %s scan and answers it', (status) => {
    const signed = carrier.signedScan({
      trackingRef: 'AB123456789GB',
      providerRef: 'tc_x',
      status,
      location: 'Leith',
    });
    const webhook = carrier.verifyWebhook(signed.body, signed.headers);
    expect(webhook.scans).toEqual([
      {
        eventId: webhook.eventId,
        trackingRef: 'AB123456789GB',
        providerRef: 'tc_x',
        status,
        occurredAt: expect.any(Date),
        location: 'Leith',
        description: SHIPMENT_STATUS_TEXT[status],
      },
    ]);
  });

  it('refuses a scan that is unsigned, tampered with, signed with another key, or stale', () => {
    const signed = carrier.signedScan({
      trackingRef: 'AB123456789GB',
      providerRef: null,
      status: 'delivered',
    });
    expect(() => carrier.verifyWebhook(signed.body, {})).toThrow(CarrierSignatureError);
    expect(() =>
      carrier.verifyWebhook(signed.body.replace('delivered', 'in_transit'), signed.headers),
    ).toThrow(CarrierSignatureError);
    const other = createTestCarrier({
      secrets: createSecrets('another-secret-that-is-long-enough-for-hkdf-999'),
      siteOrigin: 'http://localhost:3000',
    });
    const forged = other.signedScan({ trackingRef: 'AB123456789GB', providerRef: null, status: 'delivered' });
    expect(() => carrier.verifyWebhook(forged.body, forged.headers)).toThrow(/did not verify/);
    const stale = carrier.sign(signed.body, Math.floor(Date.now() / 1000) - 301);
    expect(() => carrier.verifyWebhook(stale.body, stale.headers)).toThrow(/over 5 minutes/);
    const fresh = carrier.sign(signed.body, Math.floor(Date.now() / 1000) - 200);
    expect(
      carrier.verifyWebhook(fresh.body, {
        [TEST_CARRIER_SIGNATURE_HEADER]: [fresh.headers[TEST_CARRIER_SIGNATURE_HEADER]!],
      }).scans,
    ).toHaveLength(1);
    const notAScan = carrier.sign(JSON.stringify({ id: 'x', type: 'payment', created: 1, data: {} }));
    expect(() => carrier.verifyWebhook(notAScan.body, notAScan.headers)).toThrow(/not a scan/);
  });
});
