/**
 * /admin/books in a real browser: the demo admin corrects a book's title, then merges
 * it into another book — its listings move over and the record goes; the audit log has both.
 * A moderator may edit but the merge is refused with a toast. Changes the catalogue, so this
 * file runs against a marketplace of its own.
 */
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openToast, signedIn } from '../support/auth.ts';
import { snapshot } from '../support/browser.ts';
import { type OwnMarketplace, withOwnMarketplace } from '../support/server.ts';

let browser: Browser;
let marketplace: OwnMarketplace;
withOwnMarketplace((started) => ({ browser, marketplace } = started));

const listingsOf = async (page: Page, id: string) =>
  Number.parseInt(
    (await page.locator(`[data-book="${id}"]`).getByTestId('book-listings').textContent())!,
    10,
  );

describe('admin books', () => {
  it('an admin corrects a book, then merges it into another; listings move and the audit log has both', async () => {
    const { context, page } = await signedIn(browser, 'admin@reshelf.test', { baseURL: marketplace.baseURL });
    await page.goto('/admin/books');
    const rows = page.getByTestId('staff-book');
    await rows.nth(1).waitFor();
    const duplicateId = (await rows.nth(0).getAttribute('data-book'))!;
    const keepId = (await rows.nth(1).getAttribute('data-book'))!;
    const keepTitle = (await rows.nth(1).getByTestId('book-title').textContent())!;
    const moving = await listingsOf(page, duplicateId);
    const kept = await listingsOf(page, keepId);

    const duplicateRow = page.locator(`[data-book="${duplicateId}"]`);
    await duplicateRow.getByRole('button', { name: /^Edit / }).click();
    const edit = page.getByTestId('book-edit');
    await edit.getByLabel('Title').fill('A Duplicate Record');
    await edit.getByLabel('Category').selectOption({ index: 1 });
    await edit.getByRole('button', { name: 'Save book' }).click();
    await openToast(page, 'Book saved').waitFor();
    await duplicateRow.getByText('A Duplicate Record').waitFor();

    await duplicateRow.getByRole('button', { name: 'Merge A Duplicate Record into another book' }).click();
    const merge = page.getByTestId('book-merge');
    await merge.getByLabel('Find the book to keep').fill(keepTitle);
    await merge.getByRole('button', { name: 'Find' }).click();
    await snapshot(page, 'admin-books-merge-desktop', { fullPage: false });
    await merge
      .getByTestId('merge-candidate')
      .filter({ hasText: keepTitle })
      .first()
      .getByRole('button')
      .click();
    await openToast(page, 'Books merged').waitFor();
    await duplicateRow.waitFor({ state: 'detached' });
    await page
      .locator(`[data-book="${keepId}"]`)
      .getByText(`${moving + kept} listing`)
      .waitFor();

    await page.goto('/admin/audit?action=book');
    await page.getByTestId('audit-row').first().waitFor();
    expect(
      await page.getByTestId('audit-row').evaluateAll((r) => r.map((row) => row.dataset.action)),
    ).toEqual(['book.merge', 'book.edit']);
    await context.close();
  });

  it('a moderator may not merge books: the server refuses, shown as a toast', async () => {
    const { context, page } = await signedIn(browser, 'moderator@reshelf.test', {
      baseURL: marketplace.baseURL,
      viewport: 'phone',
    });
    await page.goto('/admin/books');
    const first = page.getByTestId('staff-book').first();
    await first.waitFor();
    const title = (await first.getByTestId('book-title').textContent())!;
    await first.getByRole('button', { name: /^Merge / }).click();
    const merge = page.getByTestId('book-merge');
    await merge.getByLabel('Find the book to keep').fill('');
    await merge.getByRole('button', { name: 'Find' }).click();
    await merge.getByTestId('merge-candidate').first().getByRole('button').click();
    await openToast(page, 'Books not merged').getByText('Access denied: admin role required').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('book-title').filter({ hasText: title }).first().waitFor();
    await context.close();
  });
});
