/**
 * The fault suite (`pnpm test:faults`, decision 0024): the real site as its own process on its
 * own PostgreSQL process, under bounded load from this process, while
 *   1. PostgreSQL restarts three times: the site never exits, every answer is 2xx or 503 (no
 *      500, no 401 for a valid session, no cookie cleared), and it serves again within 5 s of
 *      PostgreSQL being up;
 *   2. the site is SIGKILLed during checkouts and started again: every order a buyer saw paid is
 *      there, no idempotency key is stuck past its lease (the retry of an interrupted checkout
 *      completes), no book stays reserved past its reservation;
 *   3. three times the concurrency that saturates it: what is shed is 503 with Retry-After, what
 *      is admitted is answered within 1 s at the 99th percentile, and memory stays bounded;
 *   4. a burst of 50 wrong passwords from many addresses: every one is checked (none refused by
 *      a limit), and no other request, during the burst or after it, is shed (password hashing
 *      runs off the event loop: decision 0057).
 * The figures are printed; only the invariants are asserted.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDatabaseExists } from '../../api/src/runtime.ts';
import {
  type Answer,
  call,
  clearsSession,
  dataOf,
  type Postgres,
  percentile,
  printFigures,
  query,
  rssMiB,
  type Site,
  startPostgres,
  startSite,
  until,
} from './harness.ts';

const DEMO_PASSWORD = 'reshelf-demo';
const ADDRESS = {
  fullName: 'Jo March',
  line1: '1 Orchard House',
  line2: null,
  town: 'Oxford',
  postcode: 'OX1 2JD',
};
/** The idempotency lease (checkout.service.ts IDEMPOTENCY_LEASE_SECONDS) and a margin. */
const LEASE_MS = 30_000;

let dataDir: string;
let postgres: Postgres;
let site: Site;

/** Reads the site's database directly, over a connection of its own (PostgreSQL restarts). */
async function rows<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: postgres.url('reshelf') });
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'reshelf-faults-'));
  await chmod(dataDir, 0o755);
  postgres = await startPostgres(path.join(dataDir, 'postgres'));
  await ensureDatabaseExists(postgres.url(), 'reshelf');
  site = await startSite({
    NODE_ENV: 'development',
    // Warnings too, as JSON: the suite counts what the site shed, and why.
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    DATA_DIR: path.join(dataDir, 'site'),
    DATABASE_URL: postgres.url('reshelf'),
    SEED_DEMO: 'true',
    // The burst of wrong passwords comes from many addresses (X-Forwarded-For from this process).
    TRUST_PROXY: 'loopback',
  });
});

afterAll(async () => {
  await site?.stop();
  await postgres?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

interface Session {
  email: string;
  /** Bearer access token (the app, scripts). */
  bearer: string;
}

/** A call that, as a well-behaved client does, comes back after a 503's Retry-After. */
async function patiently(attempt: () => Promise<Answer>): Promise<Answer> {
  for (let tries = 0; ; tries += 1) {
    const answer = await attempt();
    if (answer.status !== 503 || tries >= 20) return answer;
    await new Promise((resolve) =>
      setTimeout(resolve, Number(answer.headers.get('retry-after') ?? 1) * 1000),
    );
  }
}

async function signIn(email: string, web = false): Promise<{ answer: Answer; cookies: string[] }> {
  const answer = await patiently(() =>
    call(site.base, '/trpc/account.auth.signIn', {
      body: { email, password: DEMO_PASSWORD },
      headers: { 'x-reshelf-client': web ? 'web' : 'fault-suite' },
    }),
  );
  expect(answer.status, `${email} signs in: ${JSON.stringify(answer.body)}`).toBe(200);
  return { answer, cookies: answer.headers.getSetCookie().map((cookie) => cookie.split(';')[0]!) };
}

async function bearerSession(email: string): Promise<Session> {
  const { answer } = await signIn(email);
  return { email, bearer: dataOf<{ tokens: { accessToken: string } }>(answer).tokens.accessToken };
}

// ---- 1. PostgreSQL restarts ------------------------------------------------------------------

describe('PostgreSQL restarting under load', () => {
  it('never ends the site, answers 2xx or 503 only, signs nobody out, and serves again within 5 s', async () => {
    const browser = await signIn('buyer@reshelf.test', true);
    const cookie = browser.cookies.join('; ');
    const app = await bearerSession('moderator@reshelf.test');
    const web = { cookie, 'x-reshelf-client': 'web' };
    const bearer = { authorization: `Bearer ${app.bearer}` };
    const requests: {
      name: string;
      path: string;
      method?: string;
      body?: unknown;
      headers?: Record<string, string>;
    }[] = [
      { name: 'account.auth.me (cookie)', path: query('account.auth.me'), headers: web },
      { name: 'unreadCount (bearer)', path: query('account.notifications.unreadCount'), headers: bearer },
      {
        name: 'markRead (cookie, POST)',
        path: '/trpc/account.notifications.markRead',
        body: { ids: 'all' },
        headers: web,
      },
      { name: 'catalogue.listings.browse', path: query('catalogue.listings.browse', { pageSize: 12 }) },
      { name: 'GET /api/v1/me/orders', path: '/api/v1/me/orders?role=buyer', headers: bearer },
    ];

    const answers: { name: string; phase: string; answer: Answer }[] = [];
    let phase = 'up';
    let running = true;
    const clients = Array.from({ length: 6 }, async (_, n) => {
      for (let i = n; running; i += 1) {
        const request = requests[i % requests.length]!;
        const answer = await call(site.base, request.path, {
          method: request.method,
          body: request.body,
          headers: request.headers,
        });
        answers.push({ name: request.name, phase, answer });
      }
    });

    const recoveries: number[] = [];
    const downFor: number[] = [];
    const readyWhileDown: number[] = [];
    try {
      for (let restart = 1; restart <= 3; restart += 1) {
        const before = answers.length;
        await until('answers while PostgreSQL is up', () => answers.length >= before + 30);
        phase = `down ${restart}`;
        const downAt = Date.now();
        await postgres.stop();
        // Down long enough for every kind of request to meet the outage.
        const atStop = answers.length;
        await until(
          'answers while PostgreSQL is down, for at least a second',
          () => answers.length >= atStop + 30 && Date.now() - downAt >= 1_000,
        );
        readyWhileDown.push((await call(site.base, '/readyz')).status);
        await postgres.start();
        downFor.push(Date.now() - downAt);
        const upAt = Date.now();
        phase = `back ${restart}`;
        await until(
          'the site to serve a signed-in request again',
          async () => {
            if (site.crashes.length) throw new Error(`the site exited:\n${site.crashes[0]!.output}`);
            return (await call(site.base, query('account.auth.me'), { headers: web })).status === 200;
          },
          { timeoutMs: 30_000, everyMs: 25 },
        );
        recoveries.push(Date.now() - upAt);
      }
      const after = answers.length;
      await until('answers after the last restart', () => answers.length >= after + 30);
    } finally {
      running = false;
      await Promise.all(clients);
    }

    const statuses = new Map<number, number>();
    for (const { answer } of answers) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    const unavailable = answers.filter(({ answer }) => answer.status === 503);
    printFigures('PostgreSQL restarted 3 times under load (6 clients)', [
      ['answers', answers.length],
      ...[...statuses]
        .sort(([a], [b]) => a - b)
        .map(([status, count]): [string, number] => [`  status ${status}`, count]),
      ['PostgreSQL down for (ms)', downFor.join(', ')],
      ['/readyz while down', readyWhileDown.join(', ')],
      ['serving again after PostgreSQL up (ms)', recoveries.join(', ')],
      ['site exits', site.crashes.length],
    ]);

    expect(site.crashes, site.crashes[0]?.output).toEqual([]);
    const wrong = answers.filter(
      ({ answer }) => !(answer.status >= 200 && answer.status < 300) && answer.status !== 503,
    );
    expect(
      wrong.slice(0, 5).map(({ name, phase: when, answer }) => ({
        name,
        when,
        status: answer.status,
        body: answer.body,
        error: answer.error,
      })),
    ).toEqual([]);
    expect(unavailable.length).toBeGreaterThan(0);
    expect(unavailable.filter(({ answer }) => !(Number(answer.headers.get('retry-after')) > 0))).toEqual([]);
    expect(answers.filter(({ answer }) => clearsSession(answer)).map(({ name }) => name)).toEqual([]);
    expect(readyWhileDown).toEqual([503, 503, 503]);
    for (const recovery of recoveries) expect(recovery).toBeLessThan(5_000);
    // Still signed in with the very same cookies.
    expect(
      dataOf<{ user: { email: string } }>(await call(site.base, query('account.auth.me'), { headers: web }))
        .user.email,
    ).toBe('buyer@reshelf.test');
  });
});

// ---- 2. SIGKILL during checkouts -------------------------------------------------------------

describe('the site killed during checkouts', () => {
  it('keeps every confirmed order, leaves no key stuck and no book reserved past its reservation', async () => {
    const buyerEmails = [
      'buyer@reshelf.test',
      'moderator@reshelf.test',
      'admin@reshelf.test',
      'super@reshelf.test',
      'ops@reshelf.test',
      'support@reshelf.test',
    ];
    const buyers = await Promise.all(
      buyerEmails.map(async (email) => {
        const session = await bearerSession(email);
        const [user] = await rows<{ id: string }>('select id from auth.users where email = $1', [email]);
        return { ...session, id: user!.id };
      }),
    );
    const perBuyer = 3;
    const onSale = await rows<{ id: string; seller_id: string }>(
      `select id, seller_id from listings where status = 'active' order by created_at, id limit 200`,
    );
    const taken = new Set<string>();
    const plans = buyers.map((buyer) => {
      const listings = onSale
        .filter((listing) => listing.seller_id !== buyer.id && !taken.has(listing.id))
        .slice(0, perBuyer)
        .map((listing) => listing.id);
      for (const id of listings) taken.add(id);
      expect(listings).toHaveLength(perBuyer);
      return { buyer, listings };
    });

    const confirmed = new Set<string>();
    const keys: { userId: string; key: string }[] = [];
    const interrupted = new Set<string>();
    const unexpected: unknown[] = [];
    let siteDown = false;

    /** Calls until the site gives an answer that is not an outage (no answer, 503) or "wait". */
    async function persist(
      key: string,
      attempt: () => Promise<Answer>,
      settled: (answer: Answer) => boolean,
    ): Promise<Answer> {
      for (let tries = 0; ; tries += 1) {
        const answer = await attempt();
        if (settled(answer)) return answer;
        if (answer.status === 0 || answer.status === 409) interrupted.add(key);
        if (answer.status !== 0 && answer.status !== 503 && answer.status !== 409) {
          unexpected.push({ key, status: answer.status, body: answer.body });
          return answer;
        }
        if (tries > 400) throw new Error(`${key}: no answer after ${tries} tries`);
        const retryAfter = Number(answer.headers.get('retry-after'));
        await new Promise((resolve) =>
          setTimeout(
            resolve,
            answer.status === 503 && retryAfter > 0 ? Math.min(retryAfter * 1000, 500) : 250,
          ),
        );
      }
    }

    async function buy(buyer: (typeof buyers)[number], listingId: string): Promise<void> {
      const auth = { authorization: `Bearer ${buyer.bearer}` };
      const key = `fault-${buyer.id.slice(0, 8)}-${listingId.slice(0, 8)}`;
      keys.push({ userId: buyer.id, key });
      const started = await persist(
        key,
        () =>
          call(site.base, '/trpc/commerce.checkout.start', {
            body: { listingId, address: ADDRESS, idempotencyKey: key },
            headers: auth,
          }),
        (answer) => answer.status === 200,
      );
      if (started.status !== 200) return;
      const { orderId, redirectUrl } = dataOf<{ orderId: string; redirectUrl: string }>(started);
      const ref = new URL(redirectUrl).pathname.split('/').at(-1)!;
      for (let round = 0; round < 100; round += 1) {
        const order = await persist(
          key,
          () => call(site.base, query('commerce.orders.member.get', { orderId }), { headers: auth }),
          (answer) => answer.status === 200,
        );
        if (order.status !== 200) return;
        const status = dataOf<{ status: string }>(order).status;
        if (status !== 'pending_payment') {
          // What this buyer saw: paid.
          if (status === 'paid') confirmed.add(orderId);
          else unexpected.push({ key, orderStatus: status });
          return;
        }
        // Pay (again, if the last try was cut short): the provider's page, then its webhook.
        await persist(
          key,
          () => call(site.base, `/payments/test/${ref}/success`, { method: 'POST' }),
          (answer) => answer.status === 303,
        );
      }
      unexpected.push({ key, never: 'paid' });
    }

    // First every buyer buys one book outright: orders the kill must not lose. Then the rest start,
    // and the suite at once holds the payments table, so that every checkout still going — at
    // whatever step it had reached — is sure to stop at the payment (reserved, keys held), however
    // fast or slow the machine is; it kills the site, ends what its connections were doing, and
    // lets go.
    await Promise.all(plans.map(({ buyer, listings }) => buy(buyer, listings[0]!)));
    expect(confirmed.size).toBe(buyers.length);
    const shopping = Promise.all(
      plans.map(async ({ buyer, listings }) => {
        for (const listingId of listings.slice(1)) await buy(buyer, listingId);
      }),
    );
    const blocker = new pg.Client({ connectionString: postgres.url('reshelf') });
    blocker.on('error', () => {});
    await blocker.connect();
    await blocker.query('begin');
    await blocker.query('lock table payments in share mode');
    await until(
      'checkouts caught between reserving the book and opening its payment',
      async () =>
        Number(
          (
            await rows<{ count: string }>(
              `select count(*) from idempotency_keys
                where scope = 'checkout.start' and response is null and progress is not null`,
            )
          )[0]!.count,
        ) >= 2,
      { timeoutMs: 60_000 },
    ).catch(async (error) => {
      const state = await rows(
        `select key, response is not null as answered, progress, locked_until from idempotency_keys
          where scope = 'checkout.start' order by created_at`,
      );
      const activity = await rows(
        `select application_name, state, wait_event_type, wait_event, left(query, 120) as query
           from pg_stat_activity where datname = 'reshelf'`,
      );
      // Let go, so that the failure is this test's alone and not the next one's too.
      await blocker.query('rollback').catch(() => {});
      await blocker.end().catch(() => {});
      throw new Error(
        `${(error as Error).message}\n${JSON.stringify({ confirmed: confirmed.size, unexpected, state, activity }, null, 1)}\nthe site's log:\n${site.output().slice(-8_000)}`,
      );
    });
    siteDown = true;
    await site.kill();
    const killedAt = Date.now();
    const caught = await rows<{ key: string }>(
      `select key from idempotency_keys where scope = 'checkout.start' and response is null`,
    );
    await rows(
      `select pg_terminate_backend(pid) from pg_stat_activity
        where application_name like 'reshelf-api%' and pid <> pg_backend_pid()`,
    );
    await blocker.query('rollback');
    await blocker.end();
    await site.restart();
    siteDown = false;
    const restartMs = Date.now() - killedAt;
    await shopping;
    const doneMs = Date.now() - killedAt;

    const orders = await rows<{ id: string; status: string }>(
      'select id, status from orders where id = any($1::uuid[])',
      [[...confirmed]],
    );
    const keyRows = await rows<{ key: string; answered: boolean; lapsed: boolean }>(
      `select key, response is not null as answered,
              coalesce(locked_until, created_at + interval '30 seconds') < now() as lapsed
         from idempotency_keys where scope = 'checkout.start' and key = any($1::text[])`,
      [keys.map((entry) => entry.key)],
    );
    const overdue = await rows<{ id: string }>(
      `select l.id from listings l
        where l.id = any($1::uuid[]) and l.status = 'reserved'
          and not exists (select 1 from order_items i join orders o on o.id = i.order_id
                           where i.listing_id = l.id and o.status = 'pending_payment'
                             and o.reserved_until > now())`,
      [[...taken]],
    );
    const cancelled = await rows<{ reason: string; count: string }>(
      `select cancel_reason as reason, count(*) from orders
        where id in (select order_id from order_items where listing_id = any($1::uuid[]))
          and status = 'cancelled' group by cancel_reason`,
      [[...taken]],
    );
    printFigures('The site SIGKILLed during checkouts (6 buyers, 3 books each)', [
      ['checkouts', keys.length],
      ['orders seen paid by their buyer', confirmed.size],
      ['checkouts interrupted (no answer, or 409 while held)', interrupted.size],
      ['keys held by the killed site', caught.length],
      [
        'orders let go by a retry (payment never opened)',
        cancelled.map((row) => `${row.count} ${row.reason}`).join('; ') || 0,
      ],
      ['site back after SIGKILL (ms)', restartMs],
      ['every checkout finished after SIGKILL (ms)', doneMs],
      ['unexpected answers', unexpected.length],
    ]);

    expect(siteDown).toBe(false);
    expect(site.crashes, site.crashes[0]?.output).toEqual([]);
    expect(unexpected).toEqual([]);
    expect(confirmed.size).toBe(keys.length);
    // Every order a buyer saw paid is there, paid.
    expect(orders.map((order) => order.status).sort()).toEqual([...confirmed].map(() => 'paid'));
    // No key stuck: each was answered, those the killed site held too (their retry completed
    // once their lease ran out, carrying on from the order they had made).
    expect(caught.length).toBeGreaterThanOrEqual(2);
    expect(keyRows.filter((row) => !row.answered)).toEqual([]);
    expect(cancelled.map((row) => row.reason)).toContain(
      'The checkout was interrupted before the payment opened',
    );
    expect(doneMs).toBeLessThan(restartMs + LEASE_MS + 60_000);
    // No book reserved past its reservation.
    expect(overdue).toEqual([]);
  });
});

// ---- 3. Three times the saturating concurrency ---------------------------------------------

interface LoadRun {
  concurrency: number;
  admittedMs: number[];
  shed: number;
  shedWithoutRetryAfter: number;
  other: Map<number, number>;
  errors: number;
  seconds: number;
  rss: number[];
}

async function drive(concurrency: number, seconds: number, tokens: string[], pid?: number): Promise<LoadRun> {
  const url = new URL(site.base);
  const run: LoadRun = {
    concurrency,
    admittedMs: [],
    shed: 0,
    shedWithoutRetryAfter: 0,
    other: new Map(),
    errors: 0,
    seconds,
    rss: [],
  };
  const sampler = pid
    ? setInterval(() => {
        rssMiB(pid).then(
          (mib) => run.rss.push(mib),
          () => {},
        );
      }, 200)
    : undefined;
  const requests = tokens.flatMap((token) => [
    { method: 'GET' as const, path: query('account.auth.me'), headers: { authorization: `Bearer ${token}` } },
    {
      method: 'GET' as const,
      path: query('account.notifications.unreadCount'),
      headers: { authorization: `Bearer ${token}` },
    },
    {
      method: 'GET' as const,
      path: '/api/v1/me/orders?role=buyer',
      headers: { authorization: `Bearer ${token}` },
    },
    { method: 'GET' as const, path: query('catalogue.listings.browse', { pageSize: 24 }) },
  ]);
  try {
    await new Promise<void>((resolve, reject) => {
      const instance = autocannon(
        {
          url: `http://${url.host}`,
          connections: concurrency,
          duration: seconds,
          requests,
          timeout: 30,
          setupClient(client) {
            let retryAfter = false;
            // autocannon's parser hands over the status and the raw header list (its types say otherwise).
            const raw = client as unknown as {
              on(event: 'headers', listener: (head: { statusCode: number; headers: string[] }) => void): void;
            };
            raw.on('headers', ({ statusCode, headers }) => {
              retryAfter = false;
              if (statusCode !== 503) return;
              for (let i = 0; i < headers.length; i += 2) {
                if (headers[i]!.toLowerCase() === 'retry-after' && Number(headers[i + 1]) > 0)
                  retryAfter = true;
              }
            });
            client.on('response', (statusCode: number, _bytes: number, responseTime: number) => {
              if (statusCode >= 200 && statusCode < 300) run.admittedMs.push(responseTime);
              else if (statusCode === 503) {
                run.shed += 1;
                if (!retryAfter) run.shedWithoutRetryAfter += 1;
              } else run.other.set(statusCode, (run.other.get(statusCode) ?? 0) + 1);
            });
          },
        },
        (error) => (error ? reject(error) : resolve()),
      );
      instance.on('reqError', () => {
        run.errors += 1;
      });
    });
  } finally {
    clearInterval(sampler);
  }
  return run;
}

const throughput = (run: LoadRun) => run.admittedMs.length / run.seconds;

describe('three times the saturating concurrency', () => {
  it('sheds with 503 and Retry-After, answers what it admits within 1 s (p99), and stays bounded in memory', async () => {
    const tokens = await Promise.all(
      ['buyer@reshelf.test', 'seller@reshelf.test', 'charity@reshelf.test', 'readonly@reshelf.test'].map(
        async (email) => (await bearerSession(email)).bearer,
      ),
    );
    // Warm up (code paths compiled, connections open), then find where throughput stops growing.
    await drive(4, 2, tokens);
    const steps: LoadRun[] = [];
    for (const concurrency of [1, 2, 4, 8, 16, 32]) steps.push(await drive(concurrency, 2, tokens));
    const best = Math.max(...steps.map(throughput));
    const saturating = steps.find((run) => throughput(run) >= 0.9 * best)!.concurrency;
    const rssBefore = await rssMiB(site.pid);
    site.shed.clear();
    const overload = await drive(Math.max(3 * saturating, 24), 8, tokens, site.pid);
    const rssAfter = await rssMiB(site.pid);

    const p = (q: number) => Math.round(percentile(overload.admittedMs, q));
    printFigures('Load: three times the saturating concurrency', [
      ...steps.map((run): [string, string] => [
        `concurrency ${run.concurrency}`,
        `${Math.round(throughput(run))} admitted/s, p50 ${Math.round(percentile(run.admittedMs, 50))} ms, shed ${run.shed}`,
      ]),
      ['saturating concurrency', saturating],
      ['driven at', `${overload.concurrency} connections for ${overload.seconds} s`],
      ['admitted', `${overload.admittedMs.length} (${Math.round(throughput(overload))}/s)`],
      ['shed (503)', overload.shed],
      ['  why (from the site log)', JSON.stringify(Object.fromEntries(site.shed))],
      ['admitted p50 / p90 / p99 / max (ms)', `${p(50)} / ${p(90)} / ${p(99)} / ${p(100)}`],
      ['other statuses', JSON.stringify(Object.fromEntries(overload.other))],
      ['connection errors', overload.errors],
      ['site RSS before / peak / after (MiB)', `${rssBefore} / ${Math.max(...overload.rss)} / ${rssAfter}`],
    ]);

    expect(site.crashes, site.crashes[0]?.output).toEqual([]);
    expect(Object.fromEntries(overload.other)).toEqual({});
    expect(overload.errors).toBe(0);
    expect(overload.shedWithoutRetryAfter).toBe(0);
    expect(overload.admittedMs.length).toBeGreaterThan(100);
    expect(percentile(overload.admittedMs, 99)).toBeLessThan(1_000);
    expect(Math.max(...overload.rss)).toBeLessThan(1_024);
    // And it serves normally once the crowd has gone.
    await until(
      'a normal answer after the load',
      async () => (await call(site.base, '/readyz')).status === 200,
    );
    expect((await call(site.base, query('catalogue.listings.browse', { pageSize: 12 }))).status).toBe(200);
  });
});

// ---- 4. A burst of wrong passwords ------------------------------------------------------------

describe('a burst of wrong passwords', () => {
  it('a burst of 50 wrong passwords sheds no other request', async () => {
    const bystander = await bearerSession('buyer@reshelf.test');
    site.shed.clear();
    const demo = [
      'buyer',
      'seller',
      'charity',
      'moderator',
      'admin',
      'super',
      'ops',
      'support',
      'readonly',
    ].map((name) => `${name}@reshelf.test`);
    // 50 guesses, each from its own address, five at each demo account and five at addresses with
    // no account: under every limit, so each one is checked.
    const targets = [...demo.flatMap((email) => Array.from({ length: 5 }, () => email))];
    while (targets.length < 50) targets.push(`nobody-${targets.length}@reshelf.test`);
    const others: { name: string; path: string; headers?: Record<string, string> }[] = [
      { name: 'catalogue.listings.browse', path: query('catalogue.listings.browse', { pageSize: 12 }) },
      {
        name: 'account.auth.me (bearer)',
        path: query('account.auth.me'),
        headers: { authorization: `Bearer ${bystander.bearer}` },
      },
      // A file (never shed). Not a server-rendered page: rendering is synchronous work on the
      // event loop, a load of its own that this test is not about.
      { name: '/favicon.svg', path: '/favicon.svg' },
      { name: '/healthz', path: '/healthz' },
    ];
    const during: { name: string; answer: Answer }[] = [];
    let running = true;
    const bystanders = Array.from({ length: 3 }, async (_, n) => {
      for (let i = n; running; i += 1) {
        const other = others[i % others.length]!;
        during.push({
          name: other.name,
          answer: await call(site.base, other.path, { headers: other.headers }),
        });
      }
    });
    const burst = await Promise.all(
      targets.map((email, n) =>
        call(site.base, '/trpc/account.auth.signIn', {
          body: { email, password: `not-the-password-${n}` },
          headers: { 'x-reshelf-client': 'fault-suite', 'x-forwarded-for': `198.51.100.${n + 1}` },
          timeoutMs: 60_000,
        }),
      ),
    );
    running = false;
    await Promise.all(bystanders);
    // The next requests after the burst, one after another, and the owner's correct password.
    const after: { name: string; answer: Answer }[] = [];
    for (let i = 0; i < 13; i += 1) {
      const other = others[i % others.length]!;
      after.push({ name: other.name, answer: await call(site.base, other.path, { headers: other.headers }) });
    }
    const owner = await call(site.base, '/trpc/account.auth.signIn', {
      body: { email: 'seller@reshelf.test', password: DEMO_PASSWORD },
      headers: { 'x-reshelf-client': 'fault-suite', 'x-forwarded-for': '203.0.113.7' },
    });

    const burstStatuses = new Map<number, number>();
    for (const answer of burst) burstStatuses.set(answer.status, (burstStatuses.get(answer.status) ?? 0) + 1);
    const shedDuring = during.filter(({ answer }) => answer.status === 503);
    const shedAfter = after.filter(({ answer }) => answer.status === 503);
    printFigures('A burst of 50 wrong passwords (50 addresses, 9 accounts and 5 unknown addresses)', [
      ['wrong-password answers', JSON.stringify(Object.fromEntries(burstStatuses))],
      ['slowest wrong-password answer (ms)', Math.round(Math.max(...burst.map((answer) => answer.ms)))],
      ['other requests during the burst', during.length],
      ['  of which shed (503)', shedDuring.length],
      ['  slowest (ms)', Math.round(Math.max(...during.map(({ answer }) => answer.ms)))],
      ['the next 13 requests: shed', shedAfter.length],
      ['the owner signing in after it', owner.status],
      ['shed, by reason (site log)', JSON.stringify(Object.fromEntries(site.shed))],
    ]);

    expect(site.crashes, site.crashes[0]?.output).toEqual([]);
    // Every guess was checked: none refused by a limit or shed.
    expect(Object.fromEntries(burstStatuses)).toEqual({ 400: 50 });
    expect(during.length).toBeGreaterThan(0);
    expect(shedDuring.map(({ name }) => name)).toEqual([]);
    expect(shedAfter.map(({ name }) => name)).toEqual([]);
    expect(
      during
        .filter(({ answer }) => answer.status !== 200)
        .map(({ name, answer }) => `${name} ${answer.status}`),
    ).toEqual([]);
    expect(owner.status, JSON.stringify(owner.body)).toBe(200);
  });
});
