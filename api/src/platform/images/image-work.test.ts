/**
 * Image work, bounded: sizes read from headers without decoding (JPEG, PNG, WebP in their
 * variants), and the limiter every image path shares (never more than its slots at once,
 * first come first served, refusing past its queue, background work never refused).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import { solidPng } from '../../testing/selling.ts';
import {
  IMAGE_WORK_CONCURRENCY,
  IMAGE_WORK_QUEUE,
  imageDimensions,
  imageWork,
  WorkLimiter,
} from './image-work.ts';

const image = (width: number, height: number, channels: 3 | 4 = 3) =>
  sharp({ create: { width, height, channels, background: { r: 140, g: 47, b: 36, alpha: 0.5 } } });

describe('imageDimensions', () => {
  it('reads a JPEG’s size from its frame header, baseline or progressive, after EXIF', async () => {
    expect(imageDimensions(await image(301, 157).jpeg().toBuffer())).toEqual({ width: 301, height: 157 });
    expect(imageDimensions(await image(640, 480).jpeg({ progressive: true }).toBuffer())).toEqual({
      width: 640,
      height: 480,
    });
    const withExif = await image(120, 90)
      .jpeg()
      .withMetadata({ orientation: 6, exif: { IFD0: { Copyright: 'x'.repeat(2000) } } })
      .toBuffer();
    expect(imageDimensions(withExif)).toEqual({ width: 120, height: 90 });
  });

  it('reads a PNG’s size from IHDR, a 50-megapixel one included, without decoding it', async () => {
    expect(imageDimensions(await image(33, 44).png().toBuffer())).toEqual({ width: 33, height: 44 });
    const huge = await solidPng(10_000, 5_000);
    expect(huge.length).toBeLessThan(1_000_000);
    expect(imageDimensions(huge)).toEqual({ width: 10_000, height: 5_000 });
  });

  it('reads lossy, lossless and extended WebP', async () => {
    expect(imageDimensions(await image(257, 129).webp().toBuffer())).toEqual({ width: 257, height: 129 });
    expect(imageDimensions(await image(200, 100).webp({ lossless: true }).toBuffer())).toEqual({
      width: 200,
      height: 100,
    });
    const extended = await image(16_383, 2, 4).webp({ quality: 10 }).withMetadata().toBuffer();
    expect(imageDimensions(extended)).toEqual({ width: 16_383, height: 2 });
  });

  it('answers null for what it cannot read', async () => {
    const png = await image(20, 20).png().toBuffer();
    expect(imageDimensions(Buffer.alloc(0))).toBeNull();
    expect(imageDimensions(Buffer.from('this is not an image'))).toBeNull();
    expect(imageDimensions(png.subarray(0, 20))).toBeNull();
    const jpeg = await image(20, 20).jpeg().toBuffer();
    expect(imageDimensions(jpeg.subarray(0, 6))).toBeNull();
    expect(imageDimensions(Buffer.from([0xff, 0xd8, 0xff, 0xda, 0x00, 0x08, 1, 2, 3]))).toBeNull();
  });
});

/** Work that finishes when the test says so. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe('WorkLimiter', () => {
  const busy = () => new Error('busy');

  it('never runs more than its slots at once, and takes the waiting in order', async () => {
    const limiter = new WorkLimiter(2, 50, busy);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const gates = Array.from({ length: 20 }, gate);
    const jobs = gates.map((g, n) =>
      limiter.run(async () => {
        running += 1;
        most = Math.max(most, running);
        order.push(n);
        await g.opened;
        running -= 1;
        return n;
      }),
    );
    expect(limiter.stats()).toMatchObject({ active: 2, queued: 18 });
    for (const g of gates) {
      g.open();
      await Promise.resolve();
    }
    expect(await Promise.all(jobs)).toEqual(gates.map((_, n) => n));
    expect(order).toEqual(gates.map((_, n) => n));
    expect(most).toBe(2);
    expect(limiter.stats()).toEqual({ active: 0, queued: 0, maxActive: 2, started: 20, refused: 0 });
  });

  it('refuses at once past its queue, but lets background work wait its turn', async () => {
    const limiter = new WorkLimiter(1, 2, busy);
    const g = gate();
    const running = limiter.run(() => g.opened);
    const waiting = [limiter.run(async () => 1), limiter.run(async () => 2)];
    await expect(limiter.run(async () => 3)).rejects.toThrow('busy');
    const background = limiter.run(async () => 'cover', { background: true });
    expect(limiter.stats()).toMatchObject({ active: 1, queued: 3, refused: 1 });
    g.open();
    await running;
    expect(await Promise.all([...waiting, background])).toEqual([1, 2, 'cover']);
    expect(limiter.stats()).toMatchObject({ active: 0, queued: 0, maxActive: 1, started: 4 });
  });

  it('gives the slot back when the work fails', async () => {
    const limiter = new WorkLimiter(1, 5, busy);
    await expect(limiter.run(async () => Promise.reject(new Error('damaged')))).rejects.toThrow('damaged');
    expect(await limiter.run(async () => 'next')).toBe('next');
    expect(limiter.stats()).toMatchObject({ active: 0, queued: 0 });
  });

  it('is one limiter for every image path: 2 at a time, 16 waiting, then 503 with Retry-After', async () => {
    expect([imageWork.concurrency, imageWork.maxQueued]).toEqual([IMAGE_WORK_CONCURRENCY, IMAGE_WORK_QUEUE]);
    expect([IMAGE_WORK_CONCURRENCY, IMAGE_WORK_QUEUE]).toEqual([2, 16]);
    const g = gate();
    const held = Array.from({ length: 2 + 16 }, () => imageWork.run(() => g.opened));
    const refusal = await imageWork.run(async () => 'never').catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({
      code: 'UNAVAILABLE',
      message: 'We’re busy with a lot of photos right now. Try again in a few seconds.',
      details: { retryAfterSeconds: 5 },
    });
    g.open();
    await Promise.all(held);
  });
});
