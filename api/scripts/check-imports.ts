/**
 * The import rule (issue 21 §3, docs/architecture.md "Boundaries"), run by `pnpm lint`:
 *
 * 1. A router never imports another router file (`*.router.ts`): shared pieces live in a
 *    service, in `ctx.deps` or in `@reshelf/contracts`.
 * 2. Code in one feature (`api/src/features/<a>/`) or in `api/src/platform/` imports another
 *    feature only through that feature's public surface: the entry files named in PUBLIC below.
 *    Tests may reach into any feature; the composition root (app.ts, router.ts, services.ts and
 *    the rest of `api/src/*.ts`, `api/src/http`, `api/src/testing`, `api/scripts`) wires features
 *    together and may import any of them.
 * 3. The web never imports the API's runtime code: `import type` from `@reshelf/api` only.
 *
 * Exits 1 and names every offending import. `--self-test` checks the rule on made-up imports.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FEATURES = path.join(ROOT, 'api/src/features');
const PLATFORM = path.join(ROOT, 'api/src/platform');
const API = path.join(ROOT, 'api');

/**
 * Each feature's public surface: the files other features (and platform adapters) may import.
 * A file not listed here is the feature's own business. Add to a list deliberately: it widens
 * what other code may depend on.
 */
export const PUBLIC: Record<string, readonly string[]> = {
  'api-tokens': ['api-tokens.service.ts'],
  audit: ['audit.service.ts', 'audit.schemas.ts'],
  // session-cookies.ts: a procedure that ends the caller's sessions clears their cookies
  // (account.member.close).
  auth: ['resolve-auth.ts', 'session-cookies.ts'],
  // charity-account.service.ts: requireCharity, who acts for a charity (seller analytics reads it).
  charities: ['charities.service.ts', 'charity-account.service.ts'],
  basket: ['basket.service.ts'],
  // A seller's or a charity shop's bundle tiers, read and set (issue 23).
  'bundle-tiers': ['bundle-tiers.service.ts'],
  // Basket pricing (priceBasket, tiersFor, groupKey) is shared with the basket and bundle offers (decision 0043).
  checkout: ['checkout.service.ts', 'basket-checkout.ts', 'working-days.ts', 'holiday-region.ts'],
  // The disputes.escalate job (issue 25, decision 0049); returns.service.ts: the one return flow,
  // whose charity doors (a charity's 14-day returns) are on the charities router.
  disputes: ['disputes.service.ts', 'returns.service.ts'],
  'email-templates': ['email-templates.service.ts', 'email-templates.schemas.ts'],
  'global-admin': ['tier-protection.ts'],
  images: ['image-work.ts'],
  jobs: ['jobs.ts'],
  listings: ['listings.service.ts', 'visitor.ts'],
  'listing-views': ['listing-views.ts'],
  mail: ['mailer.ts', 'templates.ts', 'registry.ts', 'render.ts', 'suppressions.ts', 'charity-mail.ts'],
  // preferences.ts: the member's email settings, read into "Download your data" (account).
  notifications: ['notify.ts', 'notifications.service.ts', 'notification-mail.ts', 'preferences.ts'],
  // A dispute's photos are its order conversation's (startOrderThread, isThreadPhoto; decision 0049).
  messages: ['messages.service.ts'],
  offers: ['offers.service.ts'],
  // Money out (issue 24, decision 0046): payOut, the Connect webhooks, reversals on refund.
  payouts: ['payouts.service.ts'],
  ops: ['ops.service.ts'],
  // The state machine: every order status change goes through its transition() (decision 0038).
  orders: ['orders.service.ts', 'order-mail.ts', 'order-machine.ts'],
  promotions: ['promotions.service.ts'],
  realtime: ['realtime.ts', 'stream.ts', 'cursor.ts'],
  // purchases.ts: the one place purchases and sales are read (issue 26; order_items with issue 23).
  recommendations: ['recommendations.service.ts', 'purchases.ts'],
  // HMRC platform reporting: the yearly ask job, the seller's standing (decision 0047).
  reporting: ['reporting.service.ts'],
  reports: ['reports.service.ts', 'close-reports.ts'],
  'request-log': ['request-log.service.ts'],
  // Reviews (decision 0048): the review window opened on completion, the publishing job, removal.
  reviews: ['reviews.service.ts'],
  // The money: refund() is the one refund command; the payments ledger beside it (decision 0038).
  refunds: ['refund.ts', 'payments.service.ts', 'ledger.ts'],
  revenue: ['revenue.service.ts'],
  selling: ['selling.service.ts', 'photos.ts', 'book-columns.ts'],
  settings: ['settings.service.ts'],
  'staff-listings': ['staff-listings.service.ts'],
  unsubscribe: ['unsubscribe.service.ts'],
  users: ['users.service.ts'],
  discovery: ['discovery.service.ts'],
  // The job runner matches saved searches (issue 26); "Download your data" (account) reads the
  // member's follows and saved searches.
  social: ['saved-searches.service.ts', 'follows.service.ts'],
};

export interface Violation {
  file: string;
  specifier: string;
  rule: string;
}

const IMPORT =
  /(?:^|[\s;])(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

interface ImportRef {
  specifier: string;
  typeOnly: boolean;
}

export function importsOf(source: string): ImportRef[] {
  const refs: ImportRef[] = [];
  // Comments may quote imports (doc examples): drop them first.
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  for (const match of code.matchAll(IMPORT)) {
    const specifier = match[3] ?? match[4];
    if (specifier) refs.push({ specifier, typeOnly: Boolean(match[2]) });
  }
  return refs;
}

const isTest = (file: string) => /\.(test|spec)\.tsx?$/.test(file);

function featureOf(file: string): string | null {
  const rel = path.relative(FEATURES, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  return rel.split(path.sep)[0] ?? null;
}

/** Checks one file's imports (paths absolute). */
export function check(file: string, refs: ImportRef[]): Violation[] {
  const out: Violation[] = [];
  const rel = path.relative(ROOT, file);
  const inWeb = rel.startsWith(`web${path.sep}src${path.sep}`);
  for (const { specifier, typeOnly } of refs) {
    if (inWeb) {
      const target = specifier.startsWith('.') ? path.resolve(path.dirname(file), specifier) : null;
      const intoApi =
        specifier === '@reshelf/api' ||
        specifier.startsWith('@reshelf/api/') ||
        (target !== null && !path.relative(API, target).startsWith('..'));
      if (intoApi && !typeOnly)
        out.push({ file: rel, specifier, rule: 'the web imports only types from the API (`import type`)' });
      continue;
    }
    if (!specifier.startsWith('.')) continue;
    const target = path.resolve(path.dirname(file), specifier);
    if (file.endsWith('.router.ts') && target.endsWith('.router.ts') && target !== file)
      out.push({ file: rel, specifier, rule: 'a router never imports another router' });
    if (isTest(file)) continue;
    const from = featureOf(file);
    const inPlatform = !path.relative(PLATFORM, file).startsWith('..');
    if (from === null && !inPlatform) continue;
    const to = featureOf(target);
    if (to === null || to === from) continue;
    const entry = path.relative(path.join(FEATURES, to), target).split(path.sep).join('/');
    if (!(PUBLIC[to] ?? []).includes(entry))
      out.push({
        file: rel,
        specifier,
        rule: `features/${to}/${entry} is not part of the ${to} feature's public surface (api/scripts/check-imports.ts PUBLIC)`,
      });
  }
  return out;
}

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (/\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield full;
  }
}

export function checkTree(): Violation[] {
  const violations: Violation[] = [];
  for (const dir of [path.join(ROOT, 'api/src'), path.join(ROOT, 'web/src')])
    for (const file of sourceFiles(dir))
      violations.push(...check(file, importsOf(fs.readFileSync(file, 'utf8'))));
  return violations;
}

function selfTest(): void {
  const f = (p: string) => path.join(ROOT, p);
  const cases: [string, string, boolean][] = [
    ["import { x } from '../orders/orders.router.ts';", 'api/src/commerce/offers/offers.router.ts', false],
    ["import { x } from '../orders/orders.service.ts';", 'api/src/commerce/offers/offers.router.ts', true],
    ["import { x } from '../orders/lock.ts';", 'api/src/commerce/offers/offers.service.ts', false],
    ["import { x } from '../orders/lock.ts';", 'api/src/commerce/offers/offers.int.test.ts', true],
    ["import { x } from './lock.ts';", 'api/src/commerce/orders/orders.service.ts', true],
    ["import { x } from '../../features/charities/returns.service.ts';", 'api/src/platform/x/y.ts', false],
    ["import { x } from './features/orders/lock.ts';", 'api/src/app.ts', true],
    ["import type { AppRouter } from '@reshelf/api/router';", 'web/src/lib/trpc.ts', true],
    ["import { appRouter } from '@reshelf/api/router';", 'web/src/lib/trpc.ts', false],
    ["import { x } from '../../../../api/src/errors.ts';", 'web/src/features/a/b.ts', false],
  ];
  let failed = 0;
  for (const [source, file, ok] of cases) {
    const passed = check(f(file), importsOf(source)).length === 0;
    if (passed !== ok) {
      failed++;
      console.error(`self-test: ${file}: ${source} should ${ok ? 'pass' : 'fail'}`);
    }
  }
  if (failed) process.exit(1);
  console.info(`check-imports self-test: ${cases.length} cases`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  if (process.argv.includes('--self-test')) selfTest();
  const violations = checkTree();
  for (const v of violations) console.error(`${v.file}: '${v.specifier}': ${v.rule}`);
  if (violations.length) {
    console.error(`check-imports: ${violations.length} import(s) break the boundaries`);
    process.exit(1);
  }
  console.info('check-imports: ok');
}
