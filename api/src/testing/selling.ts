/** Helpers for selling tests: generated photos, photo uploads, orders. */
import { crc32, createDeflate } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import request from 'supertest';
import type { Database } from '../db/index.ts';
import { insertOrderRow } from './orders.ts';

/** A listing photo uploaded as a person with a bearer token (the raw upload route, not tRPC). */
export function uploadListingPhoto(
  app: FastifyInstance,
  token: string,
  listingId: string,
  bytes: Buffer,
  filename = 'photo.jpg',
  contentType = 'image/jpeg',
) {
  return request(app.server)
    .post(`/api/uploads/listing-photo?listingId=${listingId}`)
    .set('authorization', `Bearer ${token}`)
    .attach('photo', bytes, { filename, contentType });
}

/**
 * A real PNG of one colour at any size, written without an image library: its rows deflate to
 * almost nothing, so a 50-megapixel image is a file of about 150 KB (what an attacker would
 * send). RGB, 8 bits, no interlace.
 */
export async function solidPng(width: number, height: number, rgb: [number, number, number] = [63, 90, 69]) {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // bit depth 8, colour type RGB, deflate, adaptive, no interlace
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x += 1) row.set(rgb, 1 + x * 3); // filter byte 0, then pixels
  const deflate = createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (part: Buffer) => parts.push(part));
  const done = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  for (let y = 0; y < height; y += 1) {
    if (!deflate.write(row)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', Buffer.concat(parts)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A real photo, generated: a coloured rectangle in the given format. */
export function photo(width = 64, height = 48, format: 'png' | 'jpeg' | 'webp' = 'png'): Promise<Buffer> {
  const image = sharp({ create: { width, height, channels: 3, background: '#3f5a45' } });
  return (format === 'png' ? image.png() : format === 'jpeg' ? image.jpeg() : image.webp()).toBuffer();
}

/** An order on a listing, as the checkout would make it (totals that add up). */
export async function createOrder(
  db: Database,
  order: { listingId: string; buyerId: string; sellerId: string; status: string; priceMinor?: number },
): Promise<string> {
  const item = order.priceMinor ?? 500;
  const row = await insertOrderRow(db, {
    listing_id: order.listingId,
    buyer_id: order.buyerId,
    seller_id: order.sellerId,
    status: order.status,
    item_price_minor: item,
    postage_minor: 299,
    buyer_protection_minor: 95,
    total_minor: item + 299 + 95,
    reserved_until: order.status === 'pending_payment' ? new Date(Date.now() + 15 * 60_000) : null,
    paid_at: order.status === 'pending_payment' ? null : new Date(),
  });
  return row.id;
}
