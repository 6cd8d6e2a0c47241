/**
 * Reading lists in Chromium (issue 38, decision 0090): a new member imports the Goodreads fixture
 * on /account/reading-lists, keeps the to-read shelf as wants, sees what matched (by ISBN, by
 * title and author, not on Reshelf with why, rows that can't be read) and imports it; the wants
 * are then in the Goodreads export they download (which reads the wants table). A file that is
 * not an export gets a clear error and writes nothing. Screenshots at 1280 and 390 px.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { GOODREADS_COLUMNS, READING_LIST_MESSAGES, type ReadingListImport } from '@reshelf/contracts';
import { parse } from 'csv-parse/sync';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createConfirmedAccount, signedIn, uniqueEmail } from '../support/auth.ts';
import { baseURL, snapshotsAt, withBrowser } from '../support/browser.ts';
import { trpcQuery } from '../support/trpc.ts';

const FIXTURE = fileURLToPath(
  new URL('../fixtures/reading-lists/goodreads_library_export.csv', import.meta.url),
);
const PASSWORD = 'a-reader-of-many-books';

let browser: Browser;
withBrowser((launched) => (browser = launched));
const shots = snapshotsAt('reading-lists');

async function newMember() {
  const email = uniqueEmail('lists');
  const setUp = await browser.newContext({ baseURL: baseURL() });
  await createConfirmedAccount(setUp, email, PASSWORD, 'Jo March');
  await setUp.close();
  return signedIn(browser, email, { password: PASSWORD });
}

describe('reading lists', () => {
  it('imports a Goodreads export: the to-read shelf becomes wants, and the report says what matched', async () => {
    const { context, page } = await newMember();
    await page.goto('/account');
    await page.getByRole('link', { name: /Reading lists/ }).click();
    await page.waitForURL('**/account/reading-lists');

    await page.getByLabel('Your reading list (CSV file)').setInputFiles(FIXTURE);
    const preview = page.getByTestId('reading-list-preview');
    await preview.getByTestId('reading-list-source').getByText('Goodreads export').waitFor();
    expect(await preview.getByTestId('reading-list-counts').textContent()).toBe(
      '30 books: 16 matched by ISBN, 5 by title and author, 6 not on Reshelf yet, 3 rows that can’t be read.',
    );
    // to-read is chosen as wants and "owned" as books you have; this member wants only to-read.
    const wants = preview.getByTestId('want-shelves');
    expect(await wants.getByRole('checkbox', { name: /^to-read/ }).isChecked()).toBe(true);
    await preview
      .getByTestId('have-shelves')
      .getByRole('checkbox', { name: /^owned/ })
      .uncheck();
    // A title Goodreads wrote with its edition note matched by title and author.
    await preview
      .getByTestId('reading-list-title_author')
      .getByRole('link', { name: 'Dracula (Penguin Classics)' })
      .waitFor();
    await preview.getByTestId('reading-list-error').getByText('Row 17: no title.').waitFor();

    const importButton = preview.getByRole('button', { name: 'Import' });
    expect(await importButton.isDisabled()).toBe(true);
    await preview.getByLabel(/Skip the 3 rows that can’t be read/).check();
    await shots(page, 'preview', () => importButton.waitFor());
    await importButton.click();

    const done = page.getByTestId('reading-list-done');
    expect(await done.getByTestId('reading-list-added').textContent()).toBe(
      '11 wants and 0 books you have added from goodreads_library_export.csv.',
    );
    const matched = done
      .getByTestId('reading-list-isbn')
      .getByTestId('reading-list-row')
      .filter({ hasText: 'Emma' });
    expect(await matched.getByTestId('reading-list-outcome').textContent()).toBe('Added to your wants');
    expect(await matched.getByRole('link', { name: 'Emma' }).getAttribute('href')).toMatch(/^\/book\//);
    const unmatched = done.getByTestId('reading-list-unmatched').getByTestId('reading-list-row').filter({
      hasText: 'Piranesi',
    });
    await unmatched
      .getByText('No book with ISBN 9781526622426 or this title and author on Reshelf yet.')
      .waitFor();
    await shots(page, 'imported', () => done.waitFor());

    const imports = await trpcQuery<Omit<ReadingListImport, 'rows'>[]>(context, 'account.readingLists.list');
    expect(imports).toHaveLength(1);
    expect(imports[0]!.added).toEqual({ wants: 11, haves: 0 });

    // The import is kept with its report.
    const past = page.getByTestId('reading-list-import').filter({ hasText: 'goodreads_library_export.csv' });
    await past.getByRole('button', { name: /Show report/ }).click();
    await past.getByTestId('reading-list-unmatched').getByText('Piranesi').waitFor();

    // The wants exist: the Goodreads export (read from the member's wants) lists them as to-read.
    const arriving = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Goodreads CSV' }).click();
    const download = await arriving;
    expect(download.suggestedFilename()).toBe('reshelf_goodreads_export.csv');
    const rows: string[][] = parse(await readFile(await download.path(), 'utf8'), { bom: true });
    expect(rows[0]).toEqual([...GOODREADS_COLUMNS]);
    const title = GOODREADS_COLUMNS.indexOf('Title');
    const shelf = GOODREADS_COLUMNS.indexOf('Exclusive Shelf');
    expect(rows.slice(1).filter((row) => row[shelf] === 'to-read')).toHaveLength(11);
    expect(rows.slice(1).map((row) => row[title])).toEqual(expect.arrayContaining(['Emma', 'Dracula']));
    await context.close();
  });

  it('refuses a file that is not an export, clearly, and writes nothing', async () => {
    const { context, page } = await newMember();
    await page.goto('/account/reading-lists');
    await page.getByLabel('Your reading list (CSV file)').setInputFiles({
      name: 'books.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('title,author\nDune,Frank Herbert\n'),
    });
    const error = page.getByRole('alert').filter({ hasText: READING_LIST_MESSAGES.unknownHeader });
    await error.waitFor();
    expect(await page.getByTestId('reading-list-preview').count()).toBe(0);
    expect(await trpcQuery<unknown[]>(context, 'account.readingLists.list')).toEqual([]);
    await shots(page, 'bad-file', () => error.waitFor());
    await context.close();
  });
});
