/**
 * Wants (issue 38, decision 0088) in Chromium. A member wants an edition from its book page (at
 * a phone's width); the demo seller lists that edition in the selling wizard, whose price step
 * says "1 reader wants this"; the member is told at once (the matcher runs right after the
 * publish, not on a job round): a notification and an email. A collector wants a signed first
 * edition of another book (at desktop width): an unsigned first edition listed tells them
 * nothing, a signed first edition does. The books are this file's own, removed after.
 */
import { NO_CONDITIONS, WANT_MESSAGES, WANT_WORDS, wantConditionsLine } from '@reshelf/contracts';
import pg from 'pg';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createConfirmedAccount, signedIn, toast, uniqueEmail } from '../support/auth.ts';
import { FAILING_IMPACTS, runAxe } from '../support/axe.ts';
import { baseURL, launchBrowser, snapshot } from '../support/browser.ts';
import { makePng } from '../support/png.ts';
import { trpcMutate } from '../support/trpc.ts';

let browser: Browser;
let db: pg.Client;
const books = {
  lantern: { id: '', isbn: '9781911000013', slug: '' },
  quarry: { id: '', isbn: '9781911000020', slug: '' },
};
const LANTERN = 'A Lantern for the Wanted';
const QUARRY = 'The Collector’s Quarry';

beforeAll(async () => {
  browser = await launchBrowser();
  db = new pg.Client({ connectionString: inject('e2eDatabaseUrl') });
  await db.connect();
  for (const [key, title] of [
    ['lantern', LANTERN],
    ['quarry', QUARRY],
  ] as const) {
    const { rows } = await db.query<{ id: string }>(
      `insert into public.books (title, authors, isbn13, publisher, published_year)
       values ($1, '{Wren Wantwell}', $2, 'Lamplight Press', 1998) returning id`,
      [title, books[key].isbn],
    );
    books[key].id = rows[0]!.id;
    // Its work, made by the books trigger in that statement.
    const work = await db.query<{ slug: string }>(
      'select w.slug from public.works w join public.books b on b.work_id = w.id where b.id = $1',
      [books[key].id],
    );
    books[key].slug = work.rows[0]!.slug;
  }
});

afterAll(async () => {
  const ids = Object.values(books)
    .map((book) => book.id)
    .filter(Boolean);
  await db?.query('delete from public.listings where book_id = any($1::uuid[])', [ids]);
  await db?.query('delete from public.books where id = any($1::uuid[])', [ids]);
  await browser?.close();
  await db?.end();
});

async function query<T>(context: BrowserContext, procedure: string, input?: unknown): Promise<T> {
  const search = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  const response = await context.request.get(`/trpc/${procedure}${search}`);
  if (!response.ok()) throw new Error(`${procedure}: ${response.status()} ${await response.text()}`);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

async function newMember(label: string, viewport: 'phone' | 'desktop') {
  const email = uniqueEmail(label);
  const password = 'a-long-enough-password-1';
  const signup = await browser.newContext({ baseURL: baseURL() });
  await createConfirmedAccount(signup, email, password, label);
  await signup.close();
  return { email, ...(await signedIn(browser, email, { viewport, password })) };
}

async function step(page: Page, name: string): Promise<void> {
  await page.waitForURL(new RegExp(`step=${name}`));
  await page.locator(`[data-testid="sell-wizard"][data-step="${name}"]`).waitFor();
}

/**
 * The seller lists a copy through the wizard; answers the demand line the price step showed
 * (when asked to wait for one) and the listing's id.
 */
async function listCopy(
  page: Page,
  isbn: string,
  copy: { firstEdition?: boolean; signed?: boolean; shot?: string; demand?: boolean },
): Promise<{ demand: string | null; id: string }> {
  await page.goto('/sell/new');
  const input = page.getByTestId('isbn-input');
  await input.waitFor();
  await input.fill(isbn);
  await page.keyboard.press('Enter');
  await step(page, 'details');
  await page.getByTestId('step-submit').click();
  await step(page, 'condition');
  await page.getByText('Very good', { exact: true }).click();
  await page.getByLabel('Format').selectOption('hardback');
  const attributes = page.getByTestId('collector-attributes');
  if (copy.firstEdition) await attributes.getByText('First edition', { exact: true }).click();
  if (copy.signed) await attributes.getByText('Signed', { exact: true }).click();
  await page.getByTestId('step-submit').click();
  await step(page, 'photos');
  await page
    .getByTestId('photo-input')
    .setInputFiles({ name: 'front-cover.png', mimeType: 'image/png', buffer: makePng(600, 800) });
  await page.getByTestId('photo-list').getByRole('img', { name: 'Your copy, main view' }).waitFor();
  await page.getByTestId('step-submit').click();
  await step(page, 'price');
  await page.getByTestId('price-input').waitFor();
  // The readers who want the edition (the seller is never counted), when some are expected.
  let demand: string | null = null;
  if (copy.demand) {
    const note = page.getByTestId('want-demand');
    await note.waitFor();
    demand = await note.innerText();
  }
  if (copy.shot) await snapshot(page, copy.shot);
  await page.getByTestId('price-input').fill('30.00');
  await page.getByTestId('step-submit').click();
  await step(page, 'parcel');
  await page.getByText('Small parcel', { exact: true }).click();
  await page.getByTestId('step-submit').click();
  await step(page, 'review');
  await page.getByTestId('publish').click();
  await page.waitForURL(/\/sell\/confirm\?listing=/);
  const id = new URL(page.url()).searchParams.get('listing') as string;
  return { demand, id };
}

/** Waits until the matcher has taken the listing from the queue (it runs right after the publish). */
async function matched(listingId: string): Promise<void> {
  await expect
    .poll(
      async () =>
        (await db.query('select 1 from public.want_queue where listing_id = $1', [listingId])).rowCount,
      {
        timeout: 15_000,
      },
    )
    .toBe(0);
}

/** Wants the book on its page: the edition shown (or any edition), with these conditions ticked. */
async function want(page: Page, path: string, ticks: string[], anyEdition: boolean, shot: string) {
  await page.goto(path);
  await page.getByTestId('want-button').click();
  const form = page.getByTestId('want-form');
  await form.waitFor();
  if (anyEdition) await form.getByLabel(WANT_WORDS.kind.work).check();
  for (const tick of ticks) await form.getByLabel(tick, { exact: true }).check();
  await snapshot(page, `${shot}-form`);
  await page.getByTestId('want-save').click();
  await page.getByTestId('you-want-this').waitFor();
  await snapshot(page, shot);
}

describe('wants', { timeout: 240_000 }, () => {
  it('a seller lists a wanted edition and the member is told; a signed first-edition want ignores an unsigned copy', async () => {
    const seller = await signedIn(browser, 'seller@reshelf.test');
    const errors: string[] = [];

    // A member wants the Lamplight edition of the Lantern, from its page, at a phone's width.
    const member = await newMember('wants-reader', 'phone');
    member.page.on('pageerror', (error) => errors.push(String(error)));
    await want(
      member.page,
      `/book/${books.lantern.slug}?edition=${books.lantern.id}`,
      [],
      false,
      'wants-1-book-page-phone',
    );
    expect(await member.page.getByTestId('you-want-this').innerText()).toContain('This edition · Any copy');
    const [mine] = await query<{ kind: string; bookId: string; alerts: string }[]>(
      member.context,
      'community.wants.list',
    );
    expect(mine).toMatchObject({ kind: 'edition', bookId: books.lantern.id, alerts: 'instant' });
    // Edit on the book page opens the conditions form with focus on its first field; Cancel closes it.
    const line = member.page.getByTestId('my-want');
    await line.getByRole('button', { name: 'Edit' }).click();
    const editing = line.getByTestId('want-form');
    await editing.waitFor();
    expect(
      await editing.evaluate(
        (form) => document.activeElement === form.querySelector('input, select, textarea'),
      ),
    ).toBe(true);
    await editing.getByRole('button', { name: 'Cancel' }).click();
    await editing.waitFor({ state: 'detached' });

    // The seller lists that edition: the wizard says a reader wants it.
    const lantern = await listCopy(seller.page, books.lantern.isbn, {
      shot: 'wants-2-demand-desktop',
      demand: true,
    });
    expect(lantern.demand).toBe(WANT_WORDS.demand(1));
    expect(lantern.demand).toBe('1 reader wants this');
    await matched(lantern.id);

    // The member is told: a notification, and an email at once.
    await member.page.goto('/account/notifications');
    await member.page.getByText(`Wanted: ${LANTERN} is on sale`).waitFor();
    await snapshot(member.page, 'wants-3-notification-phone');
    const mail = await query<{ template: string; subject: string; text: string }[]>(
      member.context,
      'platform.dev.mailbox',
      {
        to: member.email,
      },
    );
    const alert = mail.find((message) => message.template === 'wants.alert');
    expect(alert?.subject).toBe(`Wanted: ${LANTERN} is on sale`);
    expect(alert?.text).toMatch(/unsubscribe/i);
    await member.page.goto('/account/wants');
    await member.page.getByTestId('want').first().waitFor();
    expect(await member.page.getByTestId('want-on-sale').first().innerText()).toBe('1 copy on sale now');
    await snapshot(member.page, 'wants-4-wants-page-phone');

    // A collector wants a signed first edition of the Quarry (any edition), at desktop width.
    const collector = await newMember('wants-collector', 'desktop');
    collector.page.on('pageerror', (error) => errors.push(String(error)));
    await want(
      collector.page,
      `/book/${books.quarry.slug}`,
      ['First edition', 'Signed'],
      true,
      'wants-5-collector-desktop',
    );
    expect(await collector.page.getByTestId('you-want-this').innerText()).toContain(
      'Any edition · First edition · Signed',
    );

    // An unsigned first edition: the collector is not told.
    const unsigned = await listCopy(seller.page, books.quarry.isbn, { firstEdition: true, demand: true });
    expect(unsigned.demand).toBe('1 reader wants this');
    await matched(unsigned.id);
    const notices = async () =>
      (
        await query<{ items: { kind: string; title: string }[] }>(
          collector.context,
          'account.notifications.list',
          { limit: 50 },
        )
      ).items.filter((n) => n.kind === 'want_match');
    expect(await notices()).toEqual([]);

    // A signed first edition: told.
    const signed = await listCopy(seller.page, books.quarry.isbn, { firstEdition: true, signed: true });
    await matched(signed.id);
    expect((await notices()).map((n) => n.title)).toEqual([`Wanted: ${QUARRY} is on sale`]);
    await collector.page.goto('/account/notifications');
    await collector.page.getByText(`Wanted: ${QUARRY} is on sale`).waitFor();
    await snapshot(collector.page, 'wants-6-collector-told-desktop');

    expect(errors).toEqual([]);
    for (const context of [member.context, collector.context, seller.context]) await context.close();
  });

  it('a member changes a want’s conditions on /account/wants at a phone’s width, and they stay changed', async () => {
    const member = await newMember('wants-editor', 'phone');
    const { page, context } = member;
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    const work = await db.query<{ work_id: string }>('select work_id from public.books where id = $1', [
      books.quarry.id,
    ]);
    await trpcMutate(context, 'community.wants.add', {
      target: { kind: 'work', workId: work.rows[0]!.work_id },
      conditions: { signed: true },
    });
    const summary = (conditions: Partial<typeof NO_CONDITIONS>) =>
      `${WANT_WORDS.kind.work} · ${wantConditionsLine({ ...NO_CONDITIONS, ...conditions })}`;
    const focused = (selector: string) =>
      page.evaluate((s) => document.activeElement === document.querySelector(s), selector);

    await page.goto('/account/wants');
    const row = page.getByTestId('want');
    await row.waitFor();
    expect(await row.getByTestId('want-conditions').innerText()).toBe(summary({ signed: true }));

    // Edit opens the conditions form in place, filled in, focus on its first field.
    await row.getByTestId('want-edit').click();
    const form = row.getByTestId('want-form');
    await form.waitFor();
    expect(await form.getByLabel('Signed', { exact: true }).isChecked()).toBe(true);
    expect(await focused('[data-testid="want-form"] input')).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const failing = (await runAxe(page)).filter((finding) => FAILING_IMPACTS.has(finding.impact));
    expect(failing).toEqual([]);

    // Cancel: nothing changed, focus back on Edit.
    await form.getByRole('button', { name: 'Cancel' }).click();
    await form.waitFor({ state: 'detached' });
    expect(await focused('[data-testid="want-edit"]')).toBe(true);

    // A price that isn't one is refused in words beside it.
    await row.getByTestId('want-edit').click();
    await form.getByLabel('Most you’d pay, all-in (£)').fill('twelve');
    await form.getByTestId('want-save').click();
    await form.getByText('Type the most you’d pay in pounds', { exact: false }).waitFor();

    // New conditions: a first edition in very good condition or better, up to £25 all-in.
    await form.getByLabel('Signed', { exact: true }).uncheck();
    await form.getByLabel('First edition', { exact: true }).check();
    await form.getByLabel('Condition at least').selectOption('very_good');
    await form.getByLabel('Most you’d pay, all-in (£)').fill('25');
    // A price now: the words about the one refused have gone.
    await form
      .getByText('Type the most you’d pay in pounds', { exact: false })
      .waitFor({ state: 'detached' });
    await snapshot(page, 'wants-7-edit-conditions-phone');
    await form.getByTestId('want-save').click();
    await toast(page, WANT_WORDS.changed(false)).waitFor();
    await form.waitFor({ state: 'detached' });
    const changed = summary({ firstEdition: true, minCondition: 'very_good', maxAllInMinor: 2500 });
    expect(await row.getByTestId('want-conditions').innerText()).toBe(changed);
    expect(await focused('[data-testid="want-edit"]')).toBe(true);

    // Still so after a reload, and as the API has it.
    await page.reload();
    await page.getByTestId('want').getByTestId('want-conditions').waitFor();
    expect(await page.getByTestId('want').getByTestId('want-conditions').innerText()).toBe(changed);
    expect(await page.getByTestId('want').count()).toBe(1);
    await snapshot(page, 'wants-8-edited-phone');

    // The API's refusal is said beside the form: the want was removed elsewhere meanwhile.
    const [want] = await query<{ id: string }[]>(context, 'community.wants.list');
    await page.getByTestId('want-edit').click();
    await trpcMutate(context, 'community.wants.remove', { id: want!.id });
    await page.getByTestId('want-save').click();
    expect(await page.getByTestId('want-form').getByRole('alert').innerText()).toBe(WANT_MESSAGES.notFound);
    expect(errors).toEqual([]);
    await context.close();
  });
});
