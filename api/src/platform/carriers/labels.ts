/**
 * Label documents as real PDFs (issue 37): an A4 page with the label in its top half and
 * guidance to fold it, and a 4×6 inch thermal label. Each carries the sender's and recipient's
 * addresses (a drop-off parcel: the point's name and address, for collection by the buyer), the
 * band, weight, order reference and network, a Code 128 barcode of the tracking number and the
 * drop-off QR code. The test carrier draws them; EasyPost's 4×6 label is placed on an A4 page
 * by `a4FromThermal`.
 *
 * Saved without object streams, so each page's (deflated) content stream can be found and read
 * back, as the tests do.
 */
import {
  CARRIER_NETWORK_LABELS,
  type CarrierNetwork,
  DELIVERY_METHOD_LABELS,
  type DeliveryMethod,
  type DropOffPoint,
  POSTAGE_BAND_LABELS,
  type PostageBand,
} from '@reshelf/contracts';
import bwipjs from 'bwip-js/node';
import { PDFDocument, type PDFFont, type PDFImage, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import type { LabelAddress } from './port.ts';

/** Points per inch; A4 in points. */
const INCH = 72;
export const A4_POINTS = { width: 595.28, height: 841.89 } as const;
export const THERMAL_POINTS = { width: 4 * INCH, height: 6 * INCH } as const;

export const FOLD_GUIDANCE =
  'Fold here: cut or fold along the dashed line and stick the top half to the parcel. Tape round the edges, never over the barcode.';

export interface LabelContent {
  trackingRef: string;
  reference: string;
  network: CarrierNetwork;
  method: DeliveryMethod;
  band: PostageBand;
  weightG: number;
  from: LabelAddress;
  to: LabelAddress;
  dropOffPoint: DropOffPoint | null;
  qrCode: string;
  /** Who printed it: "Reshelf test carrier" or the carrier's own name. */
  issuer: string;
}

/** Characters the standard PDF fonts can draw (WinAnsi): accents are dropped, the rest become "?". */
export function pdfSafe(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\u0020-\u007e\u00a0-\u00ff\u2013\u2014\u2018\u2019\u201c\u201d\u2022\u2026\u20ac]/g, '?');
}

/** The recipient's lines: the door, or the point "for collection by" the buyer. */
export function recipientLines(content: Pick<LabelContent, 'to' | 'dropOffPoint'>): string[] {
  const point = content.dropOffPoint;
  if (point) {
    return [
      point.name,
      point.addressLine,
      point.town,
      point.postcode,
      `For collection by ${content.to.fullName}`,
    ];
  }
  return addressLines(content.to);
}

function addressLines(address: LabelAddress): string[] {
  return [address.fullName, address.line1, address.line2, address.town, address.postcode].filter(
    (line): line is string => Boolean(line),
  );
}

export function weightText(weightG: number): string {
  return weightG >= 1000 ? `${(weightG / 1000).toFixed(2)} kg` : `${weightG} g`;
}

async function png(bcid: 'code128' | 'qrcode', text: string): Promise<Uint8Array> {
  const options =
    bcid === 'code128'
      ? { bcid, text, scale: 3, height: 14, includetext: false }
      : { bcid, text, scale: 4, eclevel: 'M' };
  return new Uint8Array(await bwipjs.toBuffer(options));
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface Assets {
  regular: PDFFont;
  bold: PDFFont;
  barcode: PDFImage;
  qr: PDFImage;
}

/** Draws one label into the box (origin bottom left, as PDF does). */
function drawLabel(page: PDFPage, box: Box, content: LabelContent, assets: Assets): void {
  const pad = box.width * 0.04;
  const unit = box.width / 288; // 1 at 4 inches wide
  const black = rgb(0, 0, 0);
  const left = box.x + pad;
  const inner = box.width - 2 * pad;
  let y = box.y + box.height - pad;

  page.drawRectangle({ ...box, borderColor: black, borderWidth: 1.2 * unit });

  /** One line of text, its size given for a 4-inch-wide label. */
  const line = (text: string, size: number, font: PDFFont = assets.regular) => {
    y -= size * unit * 1.25;
    page.drawText(pdfSafe(text), { x: left, y, size: size * unit, font, color: black, maxWidth: inner });
  };
  const rule = () => {
    y -= 5 * unit;
    page.drawLine({
      start: { x: box.x, y },
      end: { x: box.x + box.width, y },
      thickness: 0.8 * unit,
      color: black,
    });
  };

  const service =
    content.method === 'drop_off'
      ? `${CARRIER_NETWORK_LABELS[content.network]}: to a drop-off point`
      : `${CARRIER_NETWORK_LABELS[content.network]} Tracked 48`;
  line(service, 14, assets.bold);
  line(
    `${POSTAGE_BAND_LABELS[content.band]} · ${weightText(content.weightG)} · ${DELIVERY_METHOD_LABELS[content.method]}`,
    7.5,
  );
  line(`Order ${content.reference}`, 9, assets.bold);
  rule();

  line('DELIVER TO', 7, assets.bold);
  for (const [index, text] of recipientLines(content).entries()) line(text, index === 0 ? 12 : 10.5);
  rule();

  line('FROM', 7, assets.bold);
  for (const text of addressLines(content.from)) line(text, 7.5);
  rule();

  // The barcode across the label, the tracking number under it.
  const barcodeWidth = inner;
  const barcodeHeight = Math.min(55 * unit, (barcodeWidth * assets.barcode.height) / assets.barcode.width);
  y -= barcodeHeight + 6 * unit;
  page.drawImage(assets.barcode, { x: left, y, width: barcodeWidth, height: barcodeHeight });
  line(content.trackingRef, 11, assets.bold);
  rule();

  // The QR code, with what it is for.
  const qrSide = Math.min(80 * unit, y - box.y - pad);
  if (qrSide > 20) {
    page.drawImage(assets.qr, { x: left, y: y - qrSide - 4 * unit, width: qrSide, height: qrSide });
    const textLeft = left + qrSide + 8 * unit;
    const size = 7 * unit;
    const words = [
      'No printer? Show this QR code at',
      'the drop-off point and they print',
      'the label for you.',
      content.issuer,
    ];
    words.forEach((text, index) => {
      page.drawText(pdfSafe(text), {
        x: textLeft,
        y: y - 14 * unit - index * size * 1.4,
        size,
        font: index === words.length - 1 ? assets.bold : assets.regular,
        color: black,
        maxWidth: box.x + box.width - pad - textLeft,
      });
    });
  }
}

async function newDocument(content: LabelContent) {
  const document = await PDFDocument.create();
  document.setTitle(`Label ${content.trackingRef} (${content.reference})`);
  document.setProducer('Reshelf');
  document.setCreator(content.issuer);
  document.setCreationDate(new Date(0));
  document.setModificationDate(new Date(0));
  const [barcodePng, qrPng] = await Promise.all([
    png('code128', content.trackingRef),
    png('qrcode', content.qrCode),
  ]);
  const assets: Assets = {
    regular: await document.embedFont(StandardFonts.Helvetica),
    bold: await document.embedFont(StandardFonts.HelveticaBold),
    barcode: await document.embedPng(barcodePng),
    qr: await document.embedPng(qrPng),
  };
  return { document, assets };
}

const save = (document: PDFDocument) => document.save({ useObjectStreams: false });

/** The 4×6 inch thermal label. */
export async function thermalLabel(content: LabelContent): Promise<Uint8Array> {
  const { document, assets } = await newDocument(content);
  const page = document.addPage([THERMAL_POINTS.width, THERMAL_POINTS.height]);
  drawLabel(
    page,
    { x: 6, y: 6, width: THERMAL_POINTS.width - 12, height: THERMAL_POINTS.height - 12 },
    content,
    assets,
  );
  return save(document);
}

function drawFold(page: PDFPage, font: PDFFont): void {
  const middle = A4_POINTS.height / 2;
  page.drawLine({
    start: { x: 20, y: middle },
    end: { x: A4_POINTS.width - 20, y: middle },
    thickness: 0.8,
    dashArray: [6, 4],
    color: rgb(0.3, 0.3, 0.3),
  });
  page.drawText(pdfSafe(FOLD_GUIDANCE), {
    x: 40,
    y: middle - 18,
    size: 9,
    font,
    color: rgb(0.2, 0.2, 0.2),
    maxWidth: A4_POINTS.width - 80,
    lineHeight: 12,
  });
}

/** An A4 page with the label in its top half and the fold guidance under it. */
export async function a4Label(content: LabelContent): Promise<Uint8Array> {
  const { document, assets } = await newDocument(content);
  const page = document.addPage([A4_POINTS.width, A4_POINTS.height]);
  // The label at 4×6 inch proportions, turned to fit the top half: 6 inches wide, 4 high would
  // crowd the addresses, so it keeps its portrait shape at the half-page's height.
  const height = A4_POINTS.height / 2 - 40;
  const width = (height * THERMAL_POINTS.width) / THERMAL_POINTS.height;
  drawLabel(
    page,
    { x: (A4_POINTS.width - width) / 2, y: A4_POINTS.height / 2 + 20, width, height },
    content,
    assets,
  );
  drawFold(page, assets.regular);
  return save(document);
}

/** Places a carrier's 4×6 label PDF (its first page) in the top half of an A4 page. */
export async function a4FromThermal(thermal: Uint8Array): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  document.setProducer('Reshelf');
  const [label] = await document.embedPdf(thermal, [0]);
  if (!label) throw new Error('The carrier label PDF has no page');
  const page = document.addPage([A4_POINTS.width, A4_POINTS.height]);
  const height = A4_POINTS.height / 2 - 40;
  const scale = Math.min(height / label.height, (A4_POINTS.width - 40) / label.width);
  const width = label.width * scale;
  page.drawPage(label, {
    x: (A4_POINTS.width - width) / 2,
    y: A4_POINTS.height / 2 + 20,
    width,
    height: label.height * scale,
  });
  drawFold(page, await document.embedFont(StandardFonts.Helvetica));
  return save(document);
}
