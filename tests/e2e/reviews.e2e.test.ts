/**
 * Reviews in Chromium (decision 0048), on a marketplace of the file's own: the buyer
 * buys one of seller@reshelf.test's books, the seller dispatches it, the buyer taps "Everything is
 * OK"; both are asked (the dev mailbox, /account/reviews, and the order's own page, where the buyer
 * reviews). The buyer reviews first: nothing shows on the seller's page yet. The seller
 * reviews the buyer: both are published together, and the buyer's review appears on the seller's
 * page, on the listing page (the seller's card with their rating) and as the rating on the
 * seller's listing cards. The seller replies once. Screenshots at 1280 and 390 px.
 */
import { CLIENT_HEADER, ORDER_BUTTON_WORDS, REVIEW_WINDOW_DAYS } from '@reshelf/contracts';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signedIn, toast } from '../support/auth.ts';
import { snapshotsAt } from '../support/browser.ts';
import { type OwnMarketplace, withOwnMarketplace } from '../support/server.ts';
import { trpcMutate, trpcQuery } from '../support/trpc.ts';

let browser: Browser;
let marketplace: OwnMarketplace;
withOwnMarketplace((started) => ({ browser, marketplace } = started));

const _PHONE = { width: 390, height: 844 };
const _WEB = { [CLIENT_HEADER]: 'web' };
const ADDRESS = { fullName: 'Ava Reader', line1: '12 Turl Street', town: 'Oxford', postcode: 'OX1 3DP' };

const shots = snapshotsAt('reviews');

interface SellerListing {
  id: string;
  slug: string | null;
  title: string | null;
  priceMinor: number | null;
}

describe('reviews', { timeout: 180_000 }, () => {
  it('an order completes, both review each other, the reviews appear together on the seller’s page and the listing', async () => {
    const base = { baseURL: marketplace.baseURL };
    const seller = await signedIn(browser, 'seller@reshelf.test', base);
    const buyer = await signedIn(browser, 'buyer@reshelf.test', base);
    const mine = await trpcQuery<{ items: SellerListing[] }>(seller.context, 'selling.listings.mine', {
      status: 'active',
      page: 1,
      pageSize: 48,
    });
    const book = mine.items.find((item) => item.slug && item.title)!;
    const other = mine.items.find((item) => item.slug && item.title && item.id !== book.id)!;
    const sellerId = (await trpcQuery<{ user: { id: string } }>(seller.context, 'account.auth.me')).user.id;
    await trpcMutate(buyer.context, 'commerce.checkout.saveAddress', { address: ADDRESS, makeDefault: true });

    // The buyer buys it.
    await buyer.page.goto(`/listing/${book.slug}`);
    await buyer.page.getByRole('link', { name: 'Buy now' }).click();
    await buyer.page.waitForURL(/\/checkout\?listing=/);
    await buyer.page.getByTestId('saved-address').filter({ hasText: '12 Turl Street' }).waitFor();
    await buyer.page.getByRole('button', { name: 'Continue to confirm' }).click();
    await buyer.page.waitForURL(/\/checkout\/confirm\?/);
    const total = (await buyer.page.getByTestId('total').textContent())!.trim();
    await buyer.page.getByRole('button', { name: `${ORDER_BUTTON_WORDS} ${total}` }).click();
    await buyer.page.waitForURL(/\/payments\/test\/tp_/);
    await buyer.page.getByRole('button', { name: 'Pay now' }).click();
    await buyer.page.waitForURL(/\/checkout\/success\?order=/);
    const orderId = new URL(buyer.page.url()).searchParams.get('order')!;
    const { reference } = await trpcQuery<{ reference: string }>(
      buyer.context,
      'commerce.orders.member.get',
      {
        orderId,
      },
    );

    // The seller sends it; the buyer says everything is OK: the order completes.
    await trpcMutate(seller.context, 'commerce.orders.member.dispatch', {
      orderId,
      carrier: 'royal_mail_tracked_24',
      trackingRef: 'RM12345678GB',
    });
    await buyer.page.goto(`/account/orders/${orderId}`);
    await buyer.page.getByRole('button', { name: 'Everything is OK' }).click();
    await buyer.page
      .getByRole('dialog', { name: 'Is everything OK?' })
      .getByRole('button', { name: 'Yes, everything is OK' })
      .click();
    await toast(buyer.page, 'Order complete').waitFor();

    // Both are asked, by email too.
    for (const [who, email] of [
      [buyer, 'buyer@reshelf.test'],
      [seller, 'seller@reshelf.test'],
    ] as const) {
      const mail = await trpcQuery<{ subject: string }[]>(who.context, 'platform.dev.mailbox', { to: email });
      expect(mail.map((m) => m.subject)).toContain(`How did it go? Review order ${reference}`);
    }

    // The order's own page asks for the review (as /account/reviews does); the buyer reviews
    // there, first (a star is required).
    const toReview = buyer.page.getByTestId('order-detail').getByTestId('pending-review');
    await toReview.getByText(`Order ${reference}`).waitFor();
    await toReview.getByText(`review by`).waitFor();
    await toReview.getByRole('button', { name: 'Send review' }).click();
    await toReview.getByText('Choose from 1 to 5 stars.').waitFor();
    await toReview.getByRole('radio', { name: '4 stars' }).check();
    const buyerWords = 'Arrived in two days, wrapped with care and exactly as described.';
    await toReview.getByLabel('Your review (optional)').fill(buyerWords);
    await shots(buyer.page, 'write', () => toReview.waitFor());
    await toReview.getByRole('button', { name: 'Send review' }).click();
    await toast(buyer.page, 'Thanks — your review is published when').waitFor();
    // Written: the order no longer asks.
    await toReview.waitFor({ state: 'detached' });
    await buyer.page.goto('/account/reviews');
    expect(await buyer.page.getByTestId('pending-review').filter({ hasText: reference }).count()).toBe(0);
    await buyer.page
      .getByTestId('given-review')
      .filter({ hasText: buyerWords })
      .getByText('Private until both reviews are in or the window closes')
      .waitFor();

    // Not on the seller's page yet: published only together.
    await buyer.page.goto(`/seller/${sellerId}`);
    await buyer.page.getByTestId('reviews').getByTestId('rating').waitFor();
    expect(await buyer.page.getByTestId('reviews').getByText(buyerWords).count()).toBe(0);

    // The seller reviews the buyer: both are published.
    await seller.page.goto('/account/reviews');
    const sellerSide = seller.page.getByTestId('pending-review').filter({ hasText: reference });
    await sellerSide.getByText('How was').waitFor();
    // The buyer's review is still hidden from the seller.
    expect(await seller.page.getByText(buyerWords).count()).toBe(0);
    await sellerSide.getByRole('radio', { name: '5 stars' }).check();
    await sellerSide.getByLabel('Your review (optional)').fill('Paid at once and lovely to deal with.');
    await sellerSide.getByRole('button', { name: 'Send review' }).click();
    await toast(seller.page, 'Thanks — both reviews are now published').waitFor();
    const received = seller.page.getByTestId('received-review').filter({ hasText: buyerWords });
    await received.waitFor();

    // The seller replies once.
    await received.getByRole('button', { name: 'Reply', exact: true }).click();
    await received.getByLabel('Reply (once, shown under the review)').fill('Thank you, enjoy the book!');
    await received.getByRole('button', { name: 'Send reply' }).click();
    await toast(seller.page, 'Your reply is published').waitFor();
    await received.getByText('Your reply').waitFor();
    expect(await received.getByRole('button', { name: /reply/i }).count()).toBe(0);
    await shots(seller.page, 'account', () => received.waitFor());

    // Together on the seller's page, with the rating from real orders.
    await buyer.page.goto(`/seller/${sellerId}`);
    const onPage = buyer.page.getByTestId('reviews');
    await onPage.getByText(buyerWords).waitFor();
    await onPage.getByText('Thank you, enjoy the book!').waitFor();
    await expect(onPage.getByTestId('rating').textContent()).resolves.toMatch(/out of 5 from \d+ review/);
    await expect(onPage.getByTestId('rating').textContent()).resolves.toMatch(/% dispatched on time/);
    await shots(buyer.page, 'seller-page', () => onPage.getByText(buyerWords).waitFor());

    // And on the seller's other listing's page, and on its card.
    await buyer.page.goto(`/listing/${other.slug}`);
    await buyer.page.getByTestId('seller-card').getByTestId('seller-rating').waitFor();
    await buyer.page.getByTestId('reviews').getByText(buyerWords).waitFor();
    await shots(buyer.page, 'listing', () =>
      buyer.page.getByTestId('reviews').getByText(buyerWords).waitFor(),
    );
    await buyer.page.goto(`/seller/${sellerId}`);
    await buyer.page.getByTestId('listing-card').first().getByTestId('card-rating').waitFor();

    // More than a page of reviews: the next page comes under the first.
    const firstPage = await trpcQuery<{ reviews: { id: string }[]; nextCursor: string | null }>(
      buyer.context,
      'community.reviews.public.forSeller',
      { sellerId, limit: 6 },
    );
    expect(firstPage.nextCursor).not.toBeNull();
    const reviewItems = onPage.getByTestId('review');
    await expect.poll(() => reviewItems.count()).toBe(6);
    await onPage.getByTestId('more-reviews').click();
    await expect.poll(() => reviewItems.count()).toBeGreaterThan(6);

    // Nothing left to review for either, and the window was the spec's.
    const pending = await trpcQuery<unknown[]>(buyer.context, 'community.reviews.member.pending');
    expect(pending).toEqual([]);
    expect(REVIEW_WINDOW_DAYS).toBe(14);
  });
});
