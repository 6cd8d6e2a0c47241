/**
 * /admin/logs in a real browser: the shared basic dashboard on top, then the job
 * runs; a moderator narrows them to one job, then to failed runs. The e2e server runs no job
 * runner, so the runs are recorded in its own marketplace's database first. Then the request
 * log: a buyer's failed call shows up, found by status and by person.
 */
import pg from 'pg';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn, signInViaApi } from '../support/auth.ts';
import { launchBrowser, snapshot, VIEWPORTS } from '../support/browser.ts';
import { type OwnMarketplace, startOwnMarketplace } from '../support/server.ts';

let browser: Browser;
let marketplace: OwnMarketplace;

beforeAll(async () => {
  [browser, marketplace] = await Promise.all([launchBrowser(), startOwnMarketplace()]);
  const db = new pg.Client({ connectionString: marketplace.databaseUrl });
  await db.connect();
  try {
    await db.query(`
      insert into public.job_runs (job, started_at, finished_at, affected, error) values
        ('offers.expire', now() - interval '3 minutes', now() - interval '3 minutes', 2, null),
        ('orders.auto_complete', now() - interval '2 minutes', now() - interval '2 minutes', 0, 'connection reset by peer'),
        ('orders.auto_complete', now() - interval '1 minute', now() - interval '1 minute', 4, null)`);
  } finally {
    await db.end();
  }
});

afterAll(async () => {
  await browser?.close();
  await marketplace?.stop();
});

describe('admin logs', () => {
  it('a moderator filters the job runs by job and to errors', async () => {
    const context = await browser.newContext({ baseURL: marketplace.baseURL, viewport: VIEWPORTS.phone });
    await context.addInitScript(() => {
      localStorage.setItem('cookie-consent', 'declined');
      localStorage.setItem('has-visited', 'true');
    });
    await signInViaApi(context, 'moderator@reshelf.test');
    const page = await context.newPage();
    await page.goto('/admin/logs');
    await page.getByRole('heading', { name: 'Logs', level: 1 }).waitFor();
    await page.getByTestId('basic-dashboard').getByTestId('metric-disputes-value').waitFor();
    const runs = page.getByTestId('job-run');
    await runs.first().waitFor();
    const jobsShown = () => runs.evaluateAll((rows) => rows.map((row) => row.dataset.job));
    expect(await jobsShown()).toEqual(['orders.auto_complete', 'orders.auto_complete', 'offers.expire']);

    await page.getByLabel('Job', { exact: true }).selectOption('offers.expire');
    await page.waitForURL('**/admin/logs?job=offers.expire');
    await page
      .locator('[data-testid="job-run"][data-job="orders.auto_complete"]')
      .first()
      .waitFor({ state: 'detached' });
    expect(await jobsShown()).toEqual(['offers.expire']);

    await page.getByLabel('Job', { exact: true }).selectOption('');
    await page.waitForURL((url) => url.pathname === '/admin/logs' && url.search === '');
    // The box follows the address, so it is checked once the address says so: click, then wait.
    await page.getByLabel('Errors only').click();
    await page.waitForURL('**/admin/logs?errors=1');
    expect(await page.getByLabel('Errors only').isChecked()).toBe(true);
    await page.locator('[data-testid="job-run"][data-job="offers.expire"]').waitFor({ state: 'detached' });
    expect(await jobsShown()).toEqual(['orders.auto_complete']);
    await runs.getByText('connection reset by peer').waitFor();
    await snapshot(page, 'admin-logs-errors-phone');
    await context.close();
  });

  it('a moderator finds a buyer’s failed request in the request log', async () => {
    const buyer = await signedIn(browser, 'buyer@reshelf.test', { baseURL: marketplace.baseURL });
    const failed = await buyer.context.request.get(
      '/trpc/commerce.orders.member.get?input=%7B%22orderId%22%3A%22nope%22%7D',
    );
    expect(failed.status()).toBe(400);
    const requestId = failed.headers()['x-request-id']!;
    await buyer.context.close();

    const { context, page } = await signedIn(browser, 'moderator@reshelf.test', {
      baseURL: marketplace.baseURL,
      viewport: 'phone',
    });
    await page.goto('/admin/logs');
    await page.getByRole('navigation', { name: 'Logs' }).getByRole('link', { name: 'Requests' }).click();
    await page.waitForURL('**/admin/logs?log=requests');
    const form = page.getByRole('form', { name: 'Filter the requests' });
    await form.getByLabel('Status').selectOption('4xx');
    await form.getByLabel('Person').fill('buyer@reshelf');
    // The recorder writes lines a few seconds after the answer; flushing it makes the buyer's
    // line part of the table before the search, however busy the machine is.
    await marketplace.flushRequestLog();
    await form.getByRole('button', { name: 'Search the requests' }).click();
    const line = page.locator(`[data-testid="request-line"][data-path="/trpc/commerce.orders.member.get"]`);
    await line.first().waitFor();
    await page.waitForURL(/status=4xx/);
    await line.first().getByText('buyer@reshelf.test').waitFor();
    await line.first().getByText(requestId).waitFor();
    expect(await line.first().getAttribute('data-status')).toBe('400');
    await snapshot(page, 'admin-logs-requests-phone');
    await context.close();
  });
});
