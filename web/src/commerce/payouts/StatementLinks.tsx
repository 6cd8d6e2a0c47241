/** The seller's monthly statements: the printable page and the CSV of each month. */

import { Link } from 'react-router-dom';
import { Button } from '../../components/ui/button.tsx';
import { saveCsv } from '../../lib/download.ts';
import { trpc } from '../../lib/trpc.ts';

/** This month and the 11 before it, newest first, as YYYY-MM (UK time). */
export function recentMonths(now = new Date(), count = 12): string[] {
  const [y, m] = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/London',
    year: 'numeric',
    month: '2-digit',
  })
    .format(now)
    .split('-')
    .map(Number);
  return Array.from({ length: count }, (_, i) => {
    const date = new Date(Date.UTC(y!, m! - 1 - i, 1));
    return `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
  });
}

export function monthName(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(y!, m! - 1, 1)),
  );
}

export function StatementLinks() {
  const months = recentMonths().slice(0, 3);
  const utils = trpc.useUtils();
  return (
    <section aria-labelledby="statements-title" className="mt-8">
      <h2 id="statements-title" className="text-xl font-semibold">
        Statements
      </h2>
      <p className="mt-1 text-sm text-ink-muted">
        Every sale, refund, transfer, reversal and payout of a month, for your records.
      </p>
      <ul className="mt-3 flex flex-col gap-2" data-testid="statement-months">
        {months.map((month) => (
          <li key={month} className="flex flex-wrap items-center justify-between gap-2">
            <Link
              className="font-semibold text-brand hover:underline"
              to={`/account/payouts/statement/${month}`}
            >
              {monthName(month)}
            </Link>
            <Button
              variant="outline"
              size="sm"
              onClick={async () => {
                const file = await utils.commerce.payouts.statements.csv.fetch({ month });
                saveCsv(file.filename, file.csv);
              }}
            >
              Download CSV
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
