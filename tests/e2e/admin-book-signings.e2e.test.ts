/**
 * /admin/book-signings in a real browser: a moderator creates an event (a draft),
 * publishes it, edits its venue, and the list keeps it after a reload. Events are staff-only,
 * so the shared e2e marketplace is enough; the title is unique to this run.
 */
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signInViaApi } from '../support/auth.ts';
import { baseURL, snapshot, VIEWPORTS, withBrowser } from '../support/browser.ts';

let browser: Browser;
withBrowser((launched) => (browser = launched));

describe('admin book signings', () => {
  it('a moderator creates, publishes and edits an event', async () => {
    const context = await browser.newContext({ baseURL: baseURL(), viewport: VIEWPORTS.phone });
    await context.addInitScript(() => {
      localStorage.setItem('cookie-consent', 'declined');
      localStorage.setItem('has-visited', 'true');
    });
    await signInViaApi(context, 'moderator@reshelf.test');
    const page = await context.newPage();
    await page.goto('/admin/book-signings');
    await page.getByRole('heading', { name: 'Book signings', level: 1 }).waitFor();

    const title = `An evening with Ann Cleeves ${Date.now().toString(36)}`;
    await page.getByText('New event').click();
    const form = page.getByRole('form', { name: 'New event' });
    await form.getByLabel('Title').fill(title);
    await form.getByLabel('Author').fill('Ann Cleeves');
    await form.getByLabel('Venue').fill('Reshelf Books, Leeds');
    await form.getByLabel('Date and time').fill('2027-03-04T19:00');
    await form.getByLabel('Description (optional)').fill('Signing the new Vera novel.');
    await form.getByRole('button', { name: 'Create event' }).click();

    const event = page.getByTestId('book-signing').filter({ hasText: title });
    await event.getByText('Draft').waitFor();
    expect(await event.getAttribute('data-published')).toBe('false');
    await event.getByText('Ann Cleeves · Reshelf Books, Leeds').waitFor();

    await event.getByRole('button', { name: `Publish ${title}` }).click();
    await page.locator('[data-testid="book-signing"][data-published="true"]', { hasText: title }).waitFor();
    await event.getByText('Published').waitFor();

    await event.getByRole('button', { name: `Edit ${title}` }).click();
    const edit = page.getByRole('form', { name: `Edit ${title}` });
    expect(await edit.getByLabel('Date and time').inputValue()).toBe('2027-03-04T19:00');
    await edit.getByLabel('Venue').fill('Leeds Central Library');
    await edit.getByRole('button', { name: 'Save event' }).click();
    await event.getByText('Ann Cleeves · Leeds Central Library').waitFor();
    await snapshot(page, 'admin-book-signings-phone');

    await page.reload();
    await event.getByText('Ann Cleeves · Leeds Central Library').waitFor();
    expect(await event.getAttribute('data-published')).toBe('true');
    await context.close();
  });
});
