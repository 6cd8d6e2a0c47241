/**
 * "Download your data" in /account/settings (UK GDPR right of access, self-serve): what the file
 * holds, and a button that asks the server for it and saves it as reshelf-data-YYYY-MM-DD.json.
 * The server's refusal (e.g. too many downloads in an hour) is shown as it says it.
 */
import { DATA_EXPORT_NOTIFICATIONS, DATA_EXPORT_PER_HOUR, dataExportFileName } from '@reshelf/contracts';
import { useMutation } from '@tanstack/react-query';
import { Download, FileJson, Loader2 } from 'lucide-react';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { saveJson } from '../../lib/download.ts';
import { trpc } from '../../lib/trpc.ts';

const CONTENTS = [
  'your account: email address, name, when you joined, your email settings',
  'your profile, favourite genres and authors, and saved addresses',
  'your listings (every status, with prices and photos)',
  'your orders and sales, with their books, amounts, dates and where your orders went',
  'offers you made and received, and the messages you sent',
  'reviews you wrote and reviews of you',
  `your wishlist, follows, saved searches and your latest ${DATA_EXPORT_NOTIFICATIONS} notifications`,
  'payouts and monthly statement totals, charity teams you are in, and your API tokens’ names and dates',
];

export function DownloadDataSection() {
  const utils = trpc.useUtils();
  // Straight to the server each time (never a cached copy): a fresh export, counted against the limit.
  const download = useMutation({
    mutationFn: () => utils.client.account.member.exportData.query(),
    onSuccess: (data) => saveJson(dataExportFileName(new Date(data.generatedAt)), data),
  });

  return (
    <section
      id="your-data"
      aria-labelledby="your-data-title"
      data-testid="download-data"
      className="mt-8 flex scroll-mt-24 flex-col gap-5 rounded-xl border border-line bg-paper p-5 shadow-card sm:p-6"
    >
      <h2 id="your-data-title" className="flex items-center gap-2.5 text-xl font-semibold">
        <span className="flex size-9 items-center justify-center rounded-full bg-brand-soft text-brand">
          <FileJson aria-hidden="true" className="size-4.5" />
        </span>
        Download your data
      </h2>
      <p className="text-ink-soft">
        Get a copy of what Reshelf holds about you, as one file (JSON, readable by other apps). It has:
      </p>
      <ul className="-mt-2 list-disc space-y-1 pl-5 text-ink-soft">
        {CONTENTS.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
      <p className="text-sm text-ink-muted">
        Only your own data: not other members’ emails, addresses or messages to you. Passwords and tokens are
        never included. You can download it {DATA_EXPORT_PER_HOUR} times an hour.
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <Button
          type="button"
          variant="outline"
          className="h-11"
          disabled={download.isPending}
          onClick={() => download.mutate()}
        >
          {download.isPending ? (
            <Loader2 aria-hidden="true" className="motion-safe:animate-spin" />
          ) : (
            <Download aria-hidden="true" />
          )}
          {download.isPending ? 'Preparing your data…' : 'Download your data'}
        </Button>
        {download.isSuccess ? (
          <p role="status" className="text-sm text-ink-soft">
            Saved {dataExportFileName(new Date(download.data.generatedAt))}.
          </p>
        ) : null}
      </div>
      {download.isError ? <Alert tone="error">{apiErrorMessage(download.error)}</Alert> : null}
    </section>
  );
}
