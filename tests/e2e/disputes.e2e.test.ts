/**
 * Two-sided disputes in Chromium, with the demo accounts in browsers of their own:
 *
 * - buyer@reshelf.test buys one of seller@reshelf.test's books; it is dispatched; the buyer
 *   reports it "Damaged" with a photo; the seller offers 40% back from the sale page; the buyer
 *   accepts; the refund shows on both sides and the order completes; both then review each
 *   other, and the reviews appear together on the seller's page and a listing of theirs;
 * - a second book: the buyer reports it not as described; the seller disagrees; an admin orders
 *   a return from /admin/disputes; the buyer adds the return tracking; the seller confirms the
 *   book came back; the refund goes out and the order is refunded;
 * - a charity's book (charity@reshelf.test): the buyer asks for a 14-day return from the order
 *   page; the charity accepts on its dashboard; the buyer adds the tracking; the charity sees it,
 *   has the book back, and the buyer is refunded the book and postage (the same return flow);
 * - seller@reshelf.test turns on returns; the buyer asks to return a book for a change of mind;
 *   the seller accepts on the sale page with the address to post it to (refused without one);
 *   the buyer adds the tracking; the seller has it back; the buyer is refunded book and postage.
 *
 * A marketplace of its own (tests/support/server.ts): the books bought here leave the shared
 * catalogue alone. Screenshots at 1280 and 375 px land in tests/.artifacts/.
 */
import { CLIENT_HEADER, formatPence, ORDER_BUTTON_WORDS, PROTECTION_RULES } from '@reshelf/contracts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openToast, signedIn, toast } from '../support/auth.ts';
import { snapshotsAt } from '../support/browser.ts';
import { makePng } from '../support/png.ts';
import { type OwnMarketplace, withOwnMarketplace } from '../support/server.ts';
import { trpcMutate, trpcQuery } from '../support/trpc.ts';

let browser: Browser;
let marketplace: OwnMarketplace;
withOwnMarketplace((started) => ({ browser, marketplace } = started));

const _PHONE = { width: 390, height: 844 };
const _WEB = { [CLIENT_HEADER]: 'web' };
const ADDRESS = { fullName: 'Ava Reader', line1: '12 Turl Street', town: 'Oxford', postcode: 'OX1 3DP' };

interface Person {
  context: BrowserContext;
  page: Page;
}

const shots = snapshotsAt('disputes');

interface SellerListing {
  id: string;
  slug: string | null;
  title: string | null;
  priceMinor: number | null;
}

let books: SellerListing[] = [];

async function sellerBooks(seller: Person): Promise<SellerListing[]> {
  if (books.length > 0) return books;
  const mine = await trpcQuery<{ items: SellerListing[] }>(seller.context, 'selling.listings.mine', {
    status: 'active',
    page: 1,
    pageSize: 48,
  });
  books = mine.items
    .filter((item) => item.slug && item.title && (item.priceMinor ?? 0) >= 600)
    .filter((item, index, all) => all.findIndex((other) => other.title === item.title) === index);
  expect(books.length).toBeGreaterThanOrEqual(2);
  return books;
}

/** The buyer buys the book at its price and the seller dispatches it; the order's id and total. */
async function boughtAndSent(buyer: Person, seller: Person, book: SellerListing) {
  await trpcMutate(buyer.context, 'commerce.checkout.saveAddress', { address: ADDRESS, makeDefault: true });
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
  await trpcMutate(seller.context, 'commerce.orders.member.dispatch', {
    orderId,
    carrier: 'royal_mail_tracked_48',
    trackingRef: 'RM123456785GB',
  });
  const order = await trpcQuery<{ totalMinor: number; reference: string }>(
    buyer.context,
    'commerce.orders.member.get',
    {
      orderId,
    },
  );
  return { orderId, totalMinor: order.totalMinor, reference: order.reference };
}

/** The buyer reports a problem from their order page. */
async function report(buyer: Person, orderId: string, problem: string, description: string, photo: boolean) {
  await buyer.page.goto(`/account/orders/${orderId}`);
  await buyer.page.getByRole('button', { name: 'Report a problem' }).click();
  const dialog = buyer.page.getByRole('dialog', { name: 'Report a problem' });
  await dialog.getByLabel('What went wrong?').selectOption({ label: problem });
  await dialog.getByLabel('What’s wrong?').fill(description);
  if (photo) {
    await dialog.getByTestId('evidence-file').setInputFiles({
      name: 'torn-cover.png',
      mimeType: 'image/png',
      buffer: makePng(320, 240, [180, 60, 60]),
    });
    await dialog.getByTestId('evidence-photos').locator('img').waitFor();
  }
  await dialog.getByRole('button', { name: 'Send the report' }).click();
  await toast(buyer.page, 'Report sent').waitFor();
  await buyer.page.locator('[data-testid="order-detail"][data-status="disputed"]').waitFor();
  await buyer.page.getByTestId('dispute-case').getByText(description).waitFor();
}

describe('two-sided disputes', { timeout: 240_000 }, () => {
  it('"Damaged" with a photo; the seller offers 40% back; the buyer accepts; both see the refund', async () => {
    const seller = await signedIn(browser, 'seller@reshelf.test', { baseURL: marketplace.baseURL });
    const buyer = await signedIn(browser, 'buyer@reshelf.test', { baseURL: marketplace.baseURL });
    const book = (await sellerBooks(seller))[0]!;
    const { orderId, totalMinor, reference } = await boughtAndSent(buyer, seller, book);
    const description = 'The cover is torn across the front and the corner is crushed.';
    await report(buyer, orderId, 'Damaged', description, true);
    // The photo is in the report the seller reads.
    await seller.page.goto(`/account/sales/${orderId}`);
    const panel = seller.page.getByTestId('dispute-case');
    await panel.getByText(description).waitFor();
    await panel.getByTestId('evidence-photos').locator('img').waitFor();
    await shots(seller.page, 'seller-answers', () =>
      panel.getByRole('button', { name: 'Offer part back' }).waitFor(),
    );

    // The seller offers 40% back.
    const offer = Math.round(totalMinor * 0.4);
    await panel.getByRole('button', { name: 'Offer part back' }).click();
    const offerDialog = seller.page.getByRole('dialog', { name: 'Offer part of the price back' });
    await offerDialog.getByLabel('Amount to give back (£)').fill((offer / 100).toFixed(2));
    await offerDialog.getByRole('button', { name: 'Send the offer' }).click();
    await toast(seller.page, 'Answer sent').waitFor();
    await panel
      .getByTestId('dispute-stage')
      .getByText(`The seller offers ${formatPence(offer)} back`)
      .waitFor();

    // The buyer accepts it.
    await buyer.page.reload();
    const buyerPanel = buyer.page.getByTestId('dispute-case');
    await buyerPanel.getByRole('button', { name: `Accept ${formatPence(offer)}` }).click();
    await buyer.page
      .getByRole('dialog', { name: `Accept ${formatPence(offer)}?` })
      .getByRole('button', { name: 'Accept the offer' })
      .click();
    await toast(buyer.page, 'Thanks').waitFor();
    await buyer.page.locator('[data-testid="order-detail"][data-status="completed"]').waitFor();
    await buyerPanel
      .getByTestId('dispute-refunded')
      .getByText(`Refunded: ${formatPence(offer)}`)
      .waitFor();
    // Part of the price came back, and the case says how much, in the words every side reads.
    expect(await buyerPanel.getByTestId('dispute-stage').textContent()).toBe(
      `Settled: ${formatPence(offer)} refunded`,
    );
    await shots(buyer.page, 'buyer-refunded', () => buyerPanel.getByTestId('dispute-refunded').waitFor());

    // The seller sees it too.
    await seller.page.reload();
    await seller.page.locator('[data-testid="order-detail"][data-status="completed"]').waitFor();
    await seller.page
      .getByTestId('dispute-case')
      .getByTestId('dispute-refunded')
      .getByText(`Refunded: ${formatPence(offer)}`)
      .waitFor();
    const detail = await trpcQuery<{ refundedMinor: number }>(buyer.context, 'commerce.orders.member.get', {
      orderId,
    });
    expect(detail.refundedMinor).toBe(offer);

    // Both review each other (decision 0048): published together, on the seller's page and listing.
    const buyerWords = 'A little damaged, but the seller sorted it out quickly and fairly.';
    await buyer.page.goto('/account/reviews');
    const toReview = buyer.page.getByTestId('pending-review').filter({ hasText: reference });
    await toReview.getByRole('radio', { name: '4 stars' }).check();
    await toReview.getByLabel('Your review (optional)').fill(buyerWords);
    await toReview.getByRole('button', { name: 'Send review' }).click();
    await toast(buyer.page, 'Thanks — your review is published when').waitFor();
    await seller.page.goto('/account/reviews');
    const sellerSide = seller.page.getByTestId('pending-review').filter({ hasText: reference });
    await sellerSide.getByRole('radio', { name: '5 stars' }).check();
    await sellerSide.getByLabel('Your review (optional)').fill('Polite and reasonable about the damage.');
    await sellerSide.getByRole('button', { name: 'Send review' }).click();
    await toast(seller.page, 'Thanks — both reviews are now published').waitFor();
    const sellerId = (await trpcQuery<{ user: { id: string } }>(seller.context, 'account.auth.me')).user.id;
    await buyer.page.goto(`/seller/${sellerId}`);
    await buyer.page.getByTestId('reviews').getByText(buyerWords).waitFor();
    const other = (await sellerBooks(seller))[2] ?? (await sellerBooks(seller))[1]!;
    await buyer.page.goto(`/listing/${other.slug}`);
    await buyer.page.getByTestId('reviews').getByText(buyerWords).waitFor();
    await shots(buyer.page, 'reviewed-listing', () =>
      buyer.page.getByTestId('reviews').getByText(buyerWords).waitFor(),
    );
    await Promise.all([seller.context.close(), buyer.context.close()]);
  });

  it('contested, staff order a return; the buyer adds tracking; the seller confirms; the refund goes out', async () => {
    const seller = await signedIn(browser, 'seller@reshelf.test', { baseURL: marketplace.baseURL });
    const buyer = await signedIn(browser, 'buyer@reshelf.test', { baseURL: marketplace.baseURL });
    const admin = await signedIn(browser, 'admin@reshelf.test', { baseURL: marketplace.baseURL });
    const book = (await sellerBooks(seller))[1]!;
    const { orderId, totalMinor, reference } = await boughtAndSent(buyer, seller, book);
    const description = 'The listing said first edition, but this is a later book club printing.';
    await report(buyer, orderId, 'Not as described', description, false);

    // The seller disagrees.
    await seller.page.goto(`/account/sales/${orderId}`);
    const panel = seller.page.getByTestId('dispute-case');
    await panel.getByRole('button', { name: 'I disagree' }).click();
    const contest = seller.page.getByRole('dialog', { name: 'Tell us your side' });
    const side = 'The photos in the listing show the copyright page: it never claimed a first edition.';
    await contest.getByLabel('Why do you disagree?').fill(side);
    await contest.getByRole('button', { name: 'Send my side' }).click();
    await toast(seller.page, 'Answer sent').waitFor();
    await panel.getByTestId('dispute-stage').getByText('Our team is deciding').waitFor();

    // Staff see both sides and order a return.
    await admin.page.goto('/admin/disputes');
    const row = admin.page.locator(`[data-testid="dispute-row"][data-reference="${reference}"]`);
    await row.getByRole('button', { name: /Review/ }).click();
    const both = admin.page.getByTestId('staff-dispute-case');
    await both.getByText(description).waitFor();
    await both.getByText(side).waitFor();
    await shots(admin.page, 'staff-both-sides', () =>
      both.getByRole('button', { name: 'Return first' }).waitFor(),
    );
    await both.getByRole('button', { name: 'Return first' }).click();
    const order = admin.page.getByRole('dialog', { name: 'Ask for the book back first?' });
    await order
      .getByLabel('Note to both parties')
      .fill('Please send the book back so the seller can check it.');
    await order.getByRole('button', { name: 'Order the return' }).click();
    await openToast(admin.page, 'Return ordered').waitFor();

    // The buyer adds the return tracking.
    await buyer.page.goto(`/account/orders/${orderId}`);
    const buyerPanel = buyer.page.getByTestId('dispute-case');
    await buyerPanel.getByRole('button', { name: 'Add return tracking' }).click();
    const tracking = buyer.page.getByRole('dialog', { name: 'Add the return tracking' });
    await tracking.getByLabel('Carrier').selectOption({ label: 'Royal Mail Tracked 48' });
    await tracking.getByLabel('Tracking reference').fill('rt 1234 5678 gb');
    await tracking.getByRole('button', { name: 'Add tracking' }).click();
    await toast(buyer.page, 'Tracking added').waitFor();
    await buyerPanel.getByTestId('dispute-return').getByText('RT 1234 5678 GB', { exact: false }).waitFor();
    expect(
      (await trpcQuery<{ refundedMinor: number }>(buyer.context, 'commerce.orders.member.get', { orderId }))
        .refundedMinor,
    ).toBe(0);

    // The seller confirms it came back; the refund goes out.
    await seller.page.reload();
    await panel.getByRole('button', { name: 'I have the book back' }).click();
    await seller.page
      .getByRole('dialog', { name: 'Do you have the book back?' })
      .getByRole('button', { name: 'Yes, refund the buyer' })
      .click();
    await toast(seller.page, 'Return confirmed').waitFor();
    await seller.page.locator('[data-testid="order-detail"][data-status="refunded"]').waitFor();
    await buyer.page.reload();
    await buyer.page.locator('[data-testid="order-detail"][data-status="refunded"]').waitFor();
    await buyerPanel
      .getByTestId('dispute-refunded')
      .getByText(`Refunded: ${formatPence(totalMinor)}`)
      .waitFor();
    await shots(buyer.page, 'return-refunded', () => buyerPanel.getByTestId('dispute-refunded').waitFor());
    await Promise.all([seller.context.close(), buyer.context.close(), admin.context.close()]);
  });

  it('a charity’s 14-day return: asked, accepted, tracked, received, refunded (the same return flow)', async () => {
    const charity = await signedIn(browser, 'charity@reshelf.test', { baseURL: marketplace.baseURL });
    const buyer = await signedIn(browser, 'buyer@reshelf.test', { baseURL: marketplace.baseURL });
    const mine = await trpcQuery<{ items: SellerListing[] }>(charity.context, 'selling.listings.mine', {
      status: 'active',
      page: 1,
      pageSize: 48,
    });
    const used = new Set(books.map((book) => book.title));
    const book = mine.items.find((item) => item.slug && item.title && !used.has(item.title));
    expect(book).toBeTruthy();
    const { orderId, totalMinor } = await boughtAndSent(buyer, charity, book!);
    await trpcMutate(buyer.context, 'commerce.orders.member.markArrived', { orderId });
    const order = await trpcQuery<{ protectionMinor: number }>(buyer.context, 'commerce.orders.member.get', {
      orderId,
    });

    // The buyer asks from the order page.
    await buyer.page.goto(`/account/orders/${orderId}`);
    const panel = buyer.page.getByTestId('return-panel');
    await panel.getByRole('button', { name: 'Return this book' }).click();
    await panel.getByLabel('Why are you returning it?').fill('I changed my mind, sorry.');
    await panel.getByRole('button', { name: 'Ask to return it' }).click();
    await panel.getByTestId('return-status').getByText('Return requested').waitFor();

    // The charity accepts from its dashboard.
    await charity.page.goto('/charity/dashboard#returns');
    const item = charity.page.getByTestId('return-item').filter({ hasText: 'I changed my mind, sorry.' });
    await item.getByRole('button', { name: 'Accept the return' }).click();
    await item.getByText('Waiting for the buyer to post it back').waitFor();

    // The buyer is given the address and adds the tracking.
    await buyer.page.reload();
    const sendBack = panel.getByTestId('return-send-back');
    await sendBack.getByLabel('Carrier').selectOption({ label: 'Royal Mail Tracked 48' });
    await sendBack.getByLabel('Tracking reference').fill('rm 5555 1234 gb');
    await shots(buyer.page, 'charity-return-tracking', () => sendBack.waitFor());
    await sendBack.getByRole('button', { name: 'Add tracking' }).click();
    await panel.getByTestId('return-sent').getByText('RM 5555 1234 GB', { exact: false }).waitFor();

    // The charity sees the tracking, has the book back, and the refund goes out.
    await charity.page.reload();
    await item.getByTestId('return-item-tracking').getByText('RM 5555 1234 GB', { exact: false }).waitFor();
    await item.getByRole('button', { name: 'The book is back: refund the buyer' }).click();
    const refund = formatPence(totalMinor - order.protectionMinor);
    await item.getByText(`Refunded ${refund}`).waitFor();
    await buyer.page.reload();
    await panel.getByText(`We refunded ${refund} to your payment method.`).waitFor();
    await buyer.page.locator('[data-testid="order-detail"][data-status="refunded"]').waitFor();
    await shots(buyer.page, 'charity-return-refunded', () => panel.waitFor());
    await Promise.all([charity.context.close(), buyer.context.close()]);
  });

  it('a private seller who accepts returns: asked, accepted with the address, tracked, received, refunded', async () => {
    const seller = await signedIn(browser, 'seller@reshelf.test', { baseURL: marketplace.baseURL });
    const buyer = await signedIn(browser, 'buyer@reshelf.test', {
      baseURL: marketplace.baseURL,
      viewport: 'phone',
    });
    const list = await sellerBooks(seller);
    // Not one the tests above bought or reviewed from.
    expect(list.length).toBeGreaterThanOrEqual(4);
    const book = list[list.length - 1]!;

    // The seller turns returns on from their sales.
    await seller.page.goto('/account/sales');
    await seller.page.getByTestId('returns-setting').getByRole('checkbox').check();
    await toast(seller.page, 'Your listings now show that you accept returns').waitFor();

    const { orderId, totalMinor } = await boughtAndSent(buyer, seller, book);
    await trpcMutate(buyer.context, 'commerce.orders.member.markArrived', { orderId });
    const order = await trpcQuery<{ protectionMinor: number }>(buyer.context, 'commerce.orders.member.get', {
      orderId,
    });

    // The buyer asks from the order page, paying the postage back.
    await buyer.page.goto(`/account/orders/${orderId}`);
    const panel = buyer.page.getByTestId('return-panel');
    await panel.getByText('(you pay the postage to send it back)', { exact: false }).waitFor();
    await panel.getByRole('button', { name: 'Return this book' }).click();
    await panel.getByLabel('Why are you returning it?').fill('Bought two copies by mistake.');
    await panel.getByRole('button', { name: 'Ask to return it' }).click();
    await panel.getByTestId('return-status').getByText('Return requested').waitFor();

    // The seller accepts on the sale page, and must say where to post it.
    await seller.page.goto(`/account/sales/${orderId}`);
    const sale = seller.page.getByTestId('sale-return');
    await sale.getByText('“Bought two copies by mistake.”', { exact: false }).waitFor();
    await sale.getByRole('button', { name: 'Accept the return' }).click();
    await sale.getByRole('button', { name: 'Accept and send the address' }).click();
    await sale.getByText('Give the address the buyer should post the book to').waitFor();
    await sale
      .getByLabel('Where should the buyer post it? (your name and address)')
      .fill('Sam Seller, 4 Mill Lane, Bath BA1 1AA');
    await sale.getByRole('button', { name: 'Accept and send the address' }).click();
    await sale.getByText('To be posted to: Sam Seller, 4 Mill Lane, Bath BA1 1AA').waitFor();

    // The buyer is given that address and adds the tracking.
    await buyer.page.reload();
    await panel.getByText('Sam Seller, 4 Mill Lane, Bath BA1 1AA').waitFor();
    await panel.getByText('as soon as the seller has it back', { exact: false }).waitFor();
    const sendBack = panel.getByTestId('return-send-back');
    await sendBack.getByLabel('Carrier').selectOption({ label: 'Royal Mail Tracked 48' });
    await sendBack.getByLabel('Tracking reference').fill('rm 7777 4321 gb');
    await sendBack.getByRole('button', { name: 'Add tracking' }).click();
    await panel.getByTestId('return-sent').getByText('RM 7777 4321 GB', { exact: false }).waitFor();

    // The seller sees the tracking, has the book back, and the buyer is refunded the book and postage.
    await seller.page.reload();
    await sale.getByTestId('sale-return-tracking').getByText('RM 7777 4321 GB', { exact: false }).waitFor();
    await shots(seller.page, 'private-return-tracked', () => sale.waitFor());
    await sale.getByRole('button', { name: 'The book is back: refund the buyer' }).click();
    const refund = formatPence(totalMinor - order.protectionMinor);
    await sale.getByText(`Refunded ${refund} to the buyer.`).waitFor();
    await buyer.page.reload();
    await panel.getByText(`We refunded ${refund} to your payment method.`).waitFor();
    await buyer.page.locator('[data-testid="order-detail"][data-status="refunded"]').waitFor();
    await Promise.all([seller.context.close(), buyer.context.close()]);
  });

  it('the help page prints the rules the code uses', async () => {
    const buyer = await signedIn(browser, 'buyer@reshelf.test', { baseURL: marketplace.baseURL });
    await buyer.page.goto('/help-centre/buyer-protection');
    const page = buyer.page.getByTestId('protection-help');
    await page.getByText('3 working days', { exact: false }).first().waitFor();
    await page.getByTestId('return-postage-table').getByText('Not as described').waitFor();
    // Seller-paid return postage is refunded up to the dearest label on the rate card.
    await page
      .getByTestId('return-postage-rule')
      .filter({ hasText: `up to ${formatPence(PROTECTION_RULES.returnPostageCapMinor)}` })
      .waitFor();
    await shots(buyer.page, 'help', () => page.waitFor());
    await buyer.context.close();
  });
});
