/**
 * `pnpm ops <command>`: operators' commands, calling the BFF's typed procedures through the
 * tRPC client with a personal API token (Account settings → API tokens). One command works
 * without a token, with the database instead: `bootstrap`, the first admin of a new site
 * (api/src/first-admin.ts; exit code 5 when an admin exists already).
 *
 *   RESHELF_TOKEN (or --token)   the token: rsk_…
 *   RESHELF_URL   (or --url)     the site, http://localhost:3000 by default
 *
 * Exit codes: 0 done, 1 the server refused the request (its message is printed),
 * 2 bad usage or no token, 3 the server could not be reached, 4 the token was refused or
 * lacks the role the command needs.
 */
import { writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ADMIN_PERIOD_LABELS, ADMIN_PERIODS, type AdminPeriod, formatPence } from '@reshelf/contracts';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { csvText, pounds } from '../src/http/csv.ts';
import type { AppRouter } from '../src/router.ts';
import { ROLE_GRANTS, STAFF_GRANTS } from '../src/staff/ops/roles.ts';

export const DEFAULT_URL = 'http://localhost:3000';

const USAGE = `Usage: pnpm ops <command> [options]

First admin of a new site (no token: the server's own environment, DATABASE_URL and the rest):
  bootstrap --email E [--name N] [--role admin] [--tier super_admin] [--print-link]
                                              makes E an admin with the super_admin tier (a new
                                              account if needed) and emails a link to set its
                                              password, or prints it when mail is not set up or
                                              with --print-link; refused once any admin exists

Commands (the token each needs):
  metrics [--period today|mtd|last30|ytd]     the staff dashboard's numbers (staff)
  seed                                        seed 40 books with orders (staff, read-write token)
  reset-seed                                  remove what earlier seeds made, then seed (admin, read-write)
  cleanup --dry-run                           what the clean-up would withdraw, with some titles (staff)
  cleanup                                     withdraw duplicate listings and those without an image
                                              (admin, read-write; staff restore them at /admin/listings for 30 days)
  create-staff-user --email E --name N [--role moderator|admin]
                                              a new staff account, emailed a link to set its password
                                              (ops_admin or super_admin, read-write)
  grant-role --email E --role R               R: ${ROLE_GRANTS.join(', ')}
  revoke-role --email E --role R              (ops_admin for staff roles, super_admin for tiers; read-write)
  export-orders [--period P] [--out FILE]     orders paid in the period as CSV, to FILE or stdout (ops_admin);
                                              one row per order, its books (items) named in title and isbn13

Options:
  --token T   the API token (default: RESHELF_TOKEN)
  --url U     the site (default: RESHELF_URL, else ${DEFAULT_URL})
  --json      print the server's answer as JSON
  --help      this text
`;

export interface OpsIo {
  env: NodeJS.ProcessEnv;
  out(text: string): void;
  err(text: string): void;
}

class UsageError extends Error {}

function period(value: string | undefined): AdminPeriod {
  const chosen = (value ?? 'mtd').toLowerCase();
  if (!(ADMIN_PERIODS as readonly string[]).includes(chosen)) {
    throw new UsageError(`--period must be one of ${ADMIN_PERIODS.join(', ')} (got "${value}")`);
  }
  return chosen as AdminPeriod;
}

function required(value: string | undefined, flag: string): string {
  if (!value?.trim()) throw new UsageError(`${flag} is required`);
  return value.trim();
}

function oneOf<T extends string>(value: string, allowed: readonly T[], flag: string): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`${flag} must be one of ${allowed.join(', ')} (got "${value}")`);
  }
  return value as T;
}

/** Why a call failed, in words an operator can act on, and the exit code. */
export function describeFailure(error: unknown, url: string): { message: string; code: number } {
  if (error instanceof TRPCClientError) {
    const status = (error.data as { httpStatus?: number } | undefined)?.httpStatus;
    const cause = (error.cause ?? {}) as { cause?: { code?: string }; code?: string; name?: string };
    const network = cause.cause?.code ?? cause.code;
    if (!status && (network || error.message === 'fetch failed' || cause.name === 'TimeoutError')) {
      return {
        message: `Could not reach the Reshelf server at ${url}${network ? ` (${network})` : ''}. Is it running? Set RESHELF_URL or --url to its address.`,
        code: 3,
      };
    }
    if (status === 401) return { message: `The server refused the token: ${error.message}`, code: 4 };
    if (status === 403) {
      return {
        message: `Not allowed: ${error.message}\nThis command needs a token of someone with the role shown in \`pnpm ops --help\`.`,
        code: 4,
      };
    }
    if (!status) {
      return {
        message: `The server at ${url} did not answer as a Reshelf server does (${error.message}). Check RESHELF_URL.`,
        code: 3,
      };
    }
    return { message: error.message, code: 1 };
  }
  return { message: (error as Error).message ?? String(error), code: 1 };
}

export async function runOps(argv: string[], io: OpsIo): Promise<number> {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(argv);
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { command, values } = parsed;
  if (values.help || !command) {
    (command || values.help ? io.out : io.err)(USAGE);
    return values.help ? 0 : 2;
  }
  if (command === 'bootstrap') {
    // In-process, with the database: loaded only for this command.
    const { runBootstrap } = await import('../src/first-admin.ts');
    return runBootstrap(values, io);
  }
  const url = (values.url ?? io.env.RESHELF_URL ?? DEFAULT_URL).replace(/\/$/, '');
  const token = values.token ?? io.env.RESHELF_TOKEN;
  if (!token?.trim()) {
    io.err(
      'No API token. Create one in Account settings (/account/settings → API tokens) with the role the command needs,\nthen pass it with --token or set RESHELF_TOKEN.\n',
    );
    return 2;
  }
  const client = createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${url}/trpc`,
        headers: { authorization: `Bearer ${token.trim()}` },
        fetch: (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(120_000) }),
      }),
    ],
  });
  const print = (answer: unknown, text: string) =>
    io.out(values.json ? `${JSON.stringify(answer, null, 2)}\n` : text);

  try {
    switch (command) {
      case 'metrics': {
        const chosen = period(values.period);
        const metrics = await client.staff.dashboard.metrics.query({ period: chosen });
        print(
          metrics,
          [
            `Period: ${ADMIN_PERIOD_LABELS[chosen]}`,
            `Open Disputes: ${metrics.disputes_open}`,
            `Active Listings: ${metrics.active_listings}`,
            `Buyer Protection revenue: ${formatPence(metrics.buyer_protection_minor)}`,
            '',
          ].join('\n'),
        );
        return 0;
      }
      case 'seed':
      case 'reset-seed': {
        const result =
          command === 'reset-seed'
            ? await client.staff.dashboard.resetAndSeed.mutate({})
            : await client.staff.dashboard.seed.mutate({});
        print(
          result,
          `${command === 'seed' ? 'Seeded demo data' : 'Reset and seeded'}: ${result.listings} listings, ${result.orders} orders\n`,
        );
        return 0;
      }
      case 'cleanup': {
        if (values['dry-run']) {
          const preview = await client.staff.dashboard.cleanupPreview.query();
          const titles = preview.sample.map(
            (item) =>
              `  ${item.rule === 'duplicate' ? 'duplicate' : 'no image '}  “${item.title}” (${item.seller_name})`,
          );
          print(
            preview,
            [
              `Would withdraw: ${preview.duplicates_removed} duplicates, ${preview.no_image_removed} without an image, ${preview.total_deleted} in all`,
              ...titles,
              '',
            ].join('\n'),
          );
          return 0;
        }
        const result = await client.staff.dashboard.cleanupListings.mutate({});
        print(
          result,
          `Cleanup complete: ${result.duplicates_removed} duplicates, ${result.no_image_removed} without an image, ${result.total_deleted} withdrawn in all\n`,
        );
        return 0;
      }
      case 'create-staff-user': {
        const result = await client.staff.ops.createStaffUser.mutate({
          email: required(values.email, '--email'),
          displayName: required(values.name, '--name'),
          role: oneOf(values.role ?? 'moderator', STAFF_GRANTS, '--role'),
        });
        print(
          result,
          `Created ${result.email} (${result.role}); an email to set a password is on its way.\n`,
        );
        return 0;
      }
      case 'grant-role':
      case 'revoke-role': {
        const input = {
          email: required(values.email, '--email'),
          role: oneOf(required(values.role, '--role'), ROLE_GRANTS, '--role'),
        };
        const result =
          command === 'grant-role'
            ? await client.staff.ops.grantRole.mutate(input)
            : await client.staff.ops.revokeRole.mutate(input);
        print(result, `${result.email} ${result.granted ? 'now has' : 'no longer has'} ${result.role}\n`);
        return 0;
      }
      case 'export-orders': {
        const chosen = period(values.period);
        const result = await client.staff.ops.exportOrders.query({ period: chosen });
        const csv = csvText(
          [
            'reference',
            'status',
            'paid_at',
            'created_at',
            'dispatched_at',
            'delivered_at',
            'completed_at',
            'cancelled_at',
            'refunded_at',
            'title',
            'isbn13',
            'charity',
            'seller_id',
            'buyer_id',
            'items',
            'item_gbp',
            'bundle_discount_gbp',
            'postage_gbp',
            'buyer_protection_gbp',
            'discount_gbp',
            'total_gbp',
          ] as const,
          result.orders.map((order) => ({
            reference: order.reference,
            status: order.status,
            paid_at: order.paidAt,
            created_at: order.createdAt,
            dispatched_at: order.dispatchedAt,
            delivered_at: order.deliveredAt,
            completed_at: order.completedAt,
            cancelled_at: order.cancelledAt,
            refunded_at: order.refundedAt,
            // Every book of the order (one parcel), " | " between them.
            title: order.items.length > 0 ? order.items.map((item) => item.title).join(' | ') : order.title,
            isbn13:
              order.items.length > 0
                ? order.items.map((item) => item.isbn13 ?? '').join(' | ')
                : order.isbn13,
            charity: order.charity,
            seller_id: order.sellerId,
            buyer_id: order.buyerId,
            items: order.itemCount,
            item_gbp: pounds(order.itemMinor),
            bundle_discount_gbp: pounds(order.bundleDiscountMinor),
            postage_gbp: pounds(order.postageMinor),
            buyer_protection_gbp: pounds(order.protectionMinor),
            discount_gbp: pounds(order.discountMinor),
            total_gbp: pounds(order.totalMinor),
          })),
        );
        if (values.json) {
          io.out(`${JSON.stringify(result, null, 2)}\n`);
        } else if (values.out) {
          await writeFile(values.out, csv);
          io.err(
            `Wrote ${result.orders.length} orders paid ${ADMIN_PERIOD_LABELS[chosen]} to ${values.out}\n`,
          );
        } else {
          io.out(csv);
        }
        return 0;
      }
      default:
        io.err(`Unknown command "${command}".\n\n${USAGE}`);
        return 2;
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    const failure = describeFailure(error, url);
    io.err(`${failure.message}\n`);
    return failure.code;
  }
}

function parseOptions(argv: string[]) {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      token: { type: 'string' },
      url: { type: 'string' },
      period: { type: 'string' },
      email: { type: 'string' },
      name: { type: 'string' },
      role: { type: 'string' },
      tier: { type: 'string' },
      'print-link': { type: 'boolean' },
      out: { type: 'string' },
      json: { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (positionals.length > 1) throw new UsageError(`One command at a time (got ${positionals.join(' ')})`);
  return { command: positionals[0], values };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const code = await runOps(process.argv.slice(2), {
    env: process.env,
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  });
  process.exitCode = code;
}
