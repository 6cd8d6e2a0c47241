/**
 * The buyer's delivery choice in Chromium (issue 37), on a marketplace of its own: at 390 px and
 * 1,280 px a buyer checks out one book and picks a locker near their postcode (the total and the
 * date follow the choice, and going on without a point is refused in words); a buyer checks out
 * a basket of two books from one seller to a locker. Each order page shows the choice.
 *
 * Every figure is read from the server's quote or the page, never typed. Screenshots land in
 * tests/.artifacts/ (delivery-*.png).
 */
import {
  arrivesByWords,
  CLIENT_HEADER,
  DELIVERY_METHOD_LABELS,
  formatPence,
  type ListingCard,
  ORDER_BUTTON_WORDS,
  parsePounds,
  type Quote,
} from '@reshelf/contracts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signedIn } from '../support/auth.ts';
import { snapshot } from '../support/browser.ts';
import { type OwnMarketplace, withOwnMarketplace } from '../support/server.ts';

let browser: Browser;
let marketplace: OwnMarketplace;
withOwnMarketplace((started) => ({ browser, marketplace } = started));

const WEB = { [CLIENT_HEADER]: 'web' };
/** A London postcode with InPost lockers, Evri ParcelShops and Post Offices in the test directory. */
const POSTCODE = 'EC1A 1BB';

async function query<T>(context: BrowserContext, procedure: string, input?: unknown): Promise<T> {
  const url = `/trpc/${procedure}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`;
  const response = await context.request.get(url, { headers: WEB });
  expect(response.ok(), `${procedure}: ${response.status()} ${await response.text()}`).toBe(true);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

function pence(text: string | null): number {
  const value = parsePounds((text ?? '').replace(/[^0-9.]/g, ''));
  if (value === null) throw new Error(`Not an amount: ${text}`);
  return value;
}

/** Active books on sale, cheapest first, from sellers other than the buyer. */
async function booksOnSale(context: BrowserContext): Promise<ListingCard[]> {
  const page = await query<{ items: ListingCard[] }>(context, 'catalogue.listings.browse', {
    sort: 'price_asc',
    pageSize: 48,
  });
  return page.items.filter((card) => card.status === 'active');
}

async function enterAddress(page: Page): Promise<void> {
  const newAddress = page.getByLabel('Send it to a new address');
  if (await newAddress.count()) await newAddress.check();
  await page.getByLabel('Full name').fill('Ava Reader');
  await page.getByLabel('Address line 1').fill('1 Little Britain');
  await page.getByLabel('Town or city').fill('London');
  await page.getByLabel('Postcode').fill(POSTCODE);
  await page.getByRole('button', { name: 'Continue to confirm' }).click();
  await page.waitForURL(/\/checkout\/confirm/);
}

async function payWithTestProvider(page: Page, total: string): Promise<void> {
  await page.getByRole('button', { name: `${ORDER_BUTTON_WORDS} ${total}` }).click();
  await page.waitForURL(/\/payments\/test\/tp_/);
  await expect(page.getByTestId('amount').textContent()).resolves.toBe(total);
  await page.getByRole('button', { name: 'Pay now' }).click();
  await page.waitForURL(/\/checkout\/success\?order=/);
}

describe('the delivery choice at checkout', () => {
  for (const viewport of ['phone', 'desktop'] as const) {
    it(`a buyer picks a locker near their postcode for one book (${viewport})`, async () => {
      const { context, page } = await signedIn(browser, 'buyer@reshelf.test', {
        baseURL: marketplace.baseURL,
        viewport,
      });
      const books = await booksOnSale(context);
      const card = books[viewport === 'phone' ? 0 : 1] as ListingCard;
      const quote = await query<Quote>(context, 'commerce.checkout.quote', { listingId: card.id });
      const [home, dropOff] = quote.delivery.options;
      if (!home || !dropOff) throw new Error('Both delivery methods are offered');

      await page.goto(`/checkout?listing=${card.slug}`);
      await enterAddress(page);
      const choice = page.getByTestId('delivery-choice');
      await choice.waitFor();
      // Home delivery (tracked) is preselected, with its price and date; the total is its total.
      const homeRadio = choice.getByRole('radio', { name: DELIVERY_METHOD_LABELS.home });
      const dropRadio = choice.getByRole('radio', { name: DELIVERY_METHOD_LABELS.drop_off });
      expect(await homeRadio.isChecked()).toBe(true);
      await expect(page.getByTestId('delivery-date-home').textContent()).resolves.toBe(
        arrivesByWords(home.expectedDeliveryOn),
      );
      expect(pence(await page.getByTestId('total').textContent())).toBe(home.totalMinor);

      // Switching to a drop-off point: the postage, the total and the date follow at once.
      await dropRadio.check();
      await expect
        .poll(async () => pence(await page.getByTestId('total').textContent()))
        .toBe(dropOff.totalMinor);
      expect(pence(await page.getByTestId('postage').textContent())).toBe(dropOff.postageMinor);
      await expect(page.getByTestId('delivery-date-drop_off').textContent()).resolves.toBe(
        arrivesByWords(dropOff.expectedDeliveryOn),
      );
      expect(dropOff.expectedDeliveryOn).not.toBe(home.expectedDeliveryOn);

      // Going on without a point is refused in words.
      await page
        .getByRole('button', { name: `${ORDER_BUTTON_WORDS} ${formatPence(dropOff.totalMinor)}` })
        .click();
      await expect(page.getByTestId('drop-off-error').textContent()).resolves.toBe(
        'Choose a locker or parcel shop',
      );

      // The search starts at the delivery address's postcode: lockers, parcel shops, Post Offices.
      const postcodeField = page.getByLabel('Postcode to search near');
      await expect(postcodeField.inputValue()).resolves.toBe(POSTCODE);
      const points = page.getByTestId('drop-off-point');
      await points.first().waitFor();
      const locker = points.filter({ hasText: 'Locker · InPost' }).first();
      await expect(locker.textContent()).resolves.toContain('Open 24 hours');
      const shop = points.filter({ hasText: 'Parcel shop' }).first();
      await shop.getByText('Opening hours').click();
      await expect(shop.locator('details li').count()).resolves.toBe(7);
      // Picked by keyboard: focus the locker's radio and choose it with the space bar.
      const lockerRadio = locker.getByRole('radio');
      await lockerRadio.focus();
      await page.keyboard.press('Space');
      expect(await lockerRadio.isChecked()).toBe(true);
      const lockerName = (await locker.locator('.font-semibold').first().textContent()) ?? '';
      await expect(page.getByTestId('drop-off-error').count()).resolves.toBe(0);
      await snapshot(page, `delivery-locker-${viewport}`);

      // Back to home delivery and back again: the total follows both ways.
      await homeRadio.check();
      await expect
        .poll(async () => pence(await page.getByTestId('total').textContent()))
        .toBe(home.totalMinor);
      await dropRadio.check();
      await points.first().waitFor();
      await points.filter({ hasText: lockerName }).getByRole('radio').check();
      await expect
        .poll(async () => pence(await page.getByTestId('total').textContent()))
        .toBe(dropOff.totalMinor);

      const total = (await page.getByTestId('total').textContent())?.trim() ?? '';
      await payWithTestProvider(page, total);
      const orderId = new URL(page.url()).searchParams.get('order');
      await page.goto(`/account/orders/${orderId}`);
      const delivery = page.getByTestId('order-delivery');
      await delivery.waitFor();
      await expect(page.getByTestId('order-delivery-method').textContent()).resolves.toBe(
        DELIVERY_METHOD_LABELS.drop_off,
      );
      await expect(page.getByTestId('order-delivery-point').textContent()).resolves.toContain(lockerName);
      await expect(page.getByTestId('order-delivery-expected').textContent()).resolves.toMatch(
        /^Expected by /,
      );
      await snapshot(page, `delivery-order-locker-${viewport}`);
      await context.close();
    });
  }

  it('a buyer checks out two books from one seller to a locker, one parcel (desktop)', async () => {
    const { context, page } = await signedIn(browser, 'buyer@reshelf.test', { baseURL: marketplace.baseURL });
    const books = await booksOnSale(context);
    // Two books of one seller (not a charity's shop), neither bought by the tests above.
    const bySeller = new Map<string, ListingCard[]>();
    for (const card of books.slice(2)) {
      if (card.charity) continue;
      const detail = await query<{ seller: { id: string } }>(context, 'catalogue.listings.bySlug', {
        slug: card.slug,
      });
      bySeller.set(detail.seller.id, [...(bySeller.get(detail.seller.id) ?? []), card]);
      if ((bySeller.get(detail.seller.id)?.length ?? 0) >= 2) break;
    }
    const pair = [...bySeller.values()].find((cards) => cards.length >= 2)?.slice(0, 2);
    if (!pair) throw new Error('No seller with two books on sale');
    for (const card of pair) {
      const added = await context.request.post('/trpc/commerce.basket.member.add', {
        headers: { ...WEB, 'content-type': 'application/json' },
        data: { listingId: card.id },
      });
      expect(added.ok(), await added.text()).toBe(true);
    }
    const quote = await query<{
      groups: { delivery: { band: string; options: { totalMinor: number }[] } }[];
    }>(context, 'commerce.basket.member.quote', { listingIds: pair.map((card) => card.id) });
    expect(quote.groups).toHaveLength(1);

    await page.goto('/basket');
    const group = page.getByTestId('basket-group').filter({ hasText: pair[0]?.title ?? '' });
    await group.getByTestId('group-price-lines').waitFor();
    expect(await group.getByTestId('group-postage').count()).toBe(1);
    await expect(group.getByTestId('group-postage-words').textContent()).resolves.toContain(
      DELIVERY_METHOD_LABELS.home,
    );
    await snapshot(page, 'delivery-basket-desktop');
    await group
      .getByRole('link', { name: /check out/i })
      .first()
      .click();
    await page.waitForURL(/\/checkout\/basket/);
    // The address form renders once the saved addresses are known.
    await page.getByLabel('Full name').or(page.getByLabel('Send it to a new address')).first().waitFor();
    const newAddress = page.getByLabel('Send it to a new address');
    if (await newAddress.count()) await newAddress.check();
    if (await page.getByLabel('Full name').count()) {
      await page.getByLabel('Full name').fill('Ava Reader');
      await page.getByLabel('Address line 1').fill('1 Little Britain');
      await page.getByLabel('Town or city').fill('London');
      await page.getByLabel('Postcode').fill(POSTCODE);
    }
    // The seller's one parcel: home delivery preselected; choose a locker near the postcode.
    const checkoutGroup = page.getByTestId('checkout-group');
    expect(await checkoutGroup.count()).toBe(1);
    const groupChoice = checkoutGroup.getByTestId('delivery-choice');
    expect(await groupChoice.getByRole('radio', { name: DELIVERY_METHOD_LABELS.home }).isChecked()).toBe(
      true,
    );
    await groupChoice.getByRole('radio', { name: DELIVERY_METHOD_LABELS.drop_off }).check();
    // Paying before a point is chosen is refused in words, for that parcel.
    const pay = page.getByRole('button', { name: new RegExp(`^${ORDER_BUTTON_WORDS}`) });
    await pay.click();
    await expect(checkoutGroup.getByTestId('drop-off-error').textContent()).resolves.toBe(
      'Choose a locker or parcel shop',
    );
    await checkoutGroup.getByLabel('Postcode to search near').fill(POSTCODE);
    await checkoutGroup.getByRole('button', { name: 'Find' }).click();
    const points = checkoutGroup.getByTestId('drop-off-point');
    await points.first().waitFor();
    const lockerOrShop = points.first();
    const pointName = (await lockerOrShop.locator('.font-semibold').first().textContent()) ?? '';
    await lockerOrShop.getByRole('radio').check();
    // The total is the server's quote for the group with that point.
    const groupKey = (
      await query<{ groups: { key: string }[] }>(context, 'commerce.basket.member.quote', {
        listingIds: pair.map((card) => card.id),
      })
    ).groups[0]?.key as string;
    const pointId = (
      await query<{ points: { id: string; name: string }[] }>(context, 'commerce.checkout.dropOffPoints', {
        postcode: POSTCODE,
        band: quote.groups[0]?.delivery.band,
      })
    ).points.find((point) => point.name === pointName)?.id;
    const withPoint = await query<{ totalMinor: number }>(context, 'commerce.basket.member.quote', {
      listingIds: pair.map((card) => card.id),
      deliveries: { [groupKey]: { method: 'drop_off', pointId } },
    });
    await expect
      .poll(async () => pence(await page.getByTestId('total').textContent()))
      .toBe(withPoint.totalMinor);
    await snapshot(page, 'delivery-basket-locker-desktop');
    await pay.click();
    try {
      await page.waitForURL(/\/payments\/test\/tp_/);
    } catch (error) {
      await snapshot(page, 'delivery-basket-checkout-failed');
      throw new Error(`${String(error)}: ${await page.locator('main').innerText()}`);
    }
    await page.getByRole('button', { name: 'Pay now' }).click();
    await page.waitForURL(/\/checkout\/success\?order=/);
    const orderId = new URL(page.url()).searchParams.get('order');
    await page.goto(`/account/orders/${orderId}`);
    await page.getByTestId('order-delivery').waitFor();
    await expect(page.getByTestId('order-delivery-method').textContent()).resolves.toBe(
      DELIVERY_METHOD_LABELS.drop_off,
    );
    await expect(page.getByTestId('order-delivery-point').textContent()).resolves.toContain(pointName);
    await expect(page.getByTestId('order-delivery-expected').textContent()).resolves.toMatch(/^Expected by /);
    await snapshot(page, 'delivery-order-basket-desktop');
    await context.close();
  });
});
