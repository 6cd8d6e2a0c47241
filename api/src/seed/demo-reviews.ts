/**
 * Reviews of the demo's completed orders (decision 0048), so a newcomer sees ratings
 * on listing cards, listing pages and seller and charity pages from the first start. Every
 * completed demo order gets its review window, closed and published, with the buyer's review
 * of the seller and (most of the time) the seller's of the buyer; a few sellers have replied.
 * Stars and words are picked from the order's id, so a start always makes the same reviews.
 * The orders are the ones already seeded: no new orders, so nothing else's counts move.
 */

import { createHash } from 'node:crypto';
import { REVIEW_WINDOW_DAYS } from '@reshelf/contracts';
import type { Database } from '../db/index.ts';

const DAY = 86_400_000;

const BUYER_WORDS: Record<number, string[]> = {
  5: [
    'Beautifully packed and faster than promised. The copy is even better than the photos.',
    'Exactly as described, with a lovely note inside. Would buy again.',
    'Arrived the next day in perfect condition. A pleasure to buy from.',
    'Great seller: quick replies and careful packing.',
  ],
  4: [
    'Good copy, as described. Took a day longer than I hoped, but well wrapped.',
    'Nice clean copy; the spine is a little more creased than the photos showed.',
  ],
  3: ['The book is fine, but it was sent in a thin envelope and the corners got bumped.'],
};
const SELLER_WORDS = [
  'Paid at once and confirmed delivery quickly. Thank you!',
  'A friendly buyer, easy to deal with.',
  '',
];
const REPLY = 'Thank you for the kind words, happy reading!';

function pick(key: string): number {
  return createHash('sha256').update(key).digest().readUInt32BE(0) / 0xffffffff;
}

export async function seedDemoReviews(db: Database): Promise<{ windows: number; reviews: number }> {
  const orders = await db
    .selectFrom('orders as o')
    .innerJoin('order_items as first_item', (join) =>
      join.onRef('first_item.order_id', '=', 'o.id').on('first_item.position', '=', 1),
    )
    .innerJoin('listings as l', 'l.id', 'first_item.listing_id')
    .select(['o.id', 'o.buyer_id', 'o.seller_id', 'o.completed_at', 'l.charity_id'])
    .where('o.status', '=', 'completed')
    .where('o.completed_at', 'is not', null)
    .whereRef('o.buyer_id', '<>', 'o.seller_id')
    .orderBy('o.completed_at')
    .execute();
  const now = Date.now();
  let reviews = 0;
  for (const order of orders) {
    const completed = order.completed_at!.getTime();
    const closes = new Date(completed + REVIEW_WINDOW_DAYS * DAY);
    // Published when both were in, a day or two after completion (or when the window closed).
    const published = new Date(Math.min(completed + (1 + pick(`${order.id}:day`)) * DAY, now - 60_000));
    await db
      .insertInto('review_windows')
      .values({
        order_id: order.id,
        buyer_id: order.buyer_id,
        seller_id: order.seller_id,
        charity_id: order.charity_id,
        opened_at: order.completed_at!,
        closes_at: closes,
        published_at: published,
      })
      .onConflict((oc) => oc.column('order_id').doNothing())
      .execute();
    const roll = pick(`${order.id}:stars`);
    const stars = roll < 0.6 ? 5 : roll < 0.9 ? 4 : 3;
    const words = BUYER_WORDS[stars]!;
    const body = words[Math.floor(pick(`${order.id}:words`) * words.length)]!;
    const replied = stars === 5 && pick(`${order.id}:reply`) < 0.3;
    const rows = [
      {
        order_id: order.id,
        author_role: 'buyer',
        author_id: order.buyer_id,
        subject_id: order.seller_id,
        stars,
        body,
        created_at: published,
        published_at: published,
        reply: replied ? REPLY : null,
        replied_at: replied ? published : null,
      },
    ];
    if (pick(`${order.id}:seller`) < 0.8) {
      rows.push({
        order_id: order.id,
        author_role: 'seller',
        author_id: order.seller_id,
        subject_id: order.buyer_id,
        stars: 5,
        body: SELLER_WORDS[Math.floor(pick(`${order.id}:seller-words`) * SELLER_WORDS.length)]!,
        created_at: published,
        published_at: published,
        reply: null,
        replied_at: null,
      });
    }
    const inserted = await db
      .insertInto('reviews')
      .values(rows)
      .onConflict((oc) => oc.columns(['order_id', 'author_role']).doNothing())
      .returning('id')
      .execute();
    reviews += inserted.length;
  }
  return { windows: orders.length, reviews };
}
