import {
  type EmailPreferences,
  NOTIFICATION_GROUPS,
  NOTIFICATION_KIND_INFO,
  NOTIFICATION_KINDS,
  type NotificationKind,
  type OptionalEmailList,
} from '@reshelf/contracts';
import { Lock, Mail } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { RowsSkeleton } from '../../components/placeholders.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { QueryView } from '../../kit/index.ts';
import { trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';
import { useSetEmailPreference } from './hooks.ts';

/**
 * The emails part of /account/settings: for each kind of notification, whether it is emailed.
 * Most are always emailed (money, parcels, deadlines: shown as such, with why); the optional
 * ones are a switch each, the same choice as the unsubscribe link in those emails. Everything
 * is in the app (the bell) whatever is chosen here.
 */
export function EmailPreferencesSection() {
  const preferences = trpc.account.notifications.emailPreferences.useQuery();
  const save = useSetEmailPreference();
  // Arriving from a link to #emails (the notifications page, the account page): show it.
  const location = useLocation();
  const section = useRef<HTMLElement>(null);
  const loaded = preferences.isSuccess;
  useEffect(() => {
    if (loaded && location.hash === '#emails') section.current?.scrollIntoView({ block: 'start' });
  }, [loaded, location.hash]);

  return (
    <section
      ref={section}
      id="emails"
      aria-labelledby="emails-heading"
      data-testid="email-preferences"
      className="mt-8 flex scroll-mt-24 flex-col gap-5 rounded-xl border border-line bg-paper p-5 shadow-card sm:p-6"
    >
      <h2 id="emails-heading" className="flex items-center gap-2.5 text-xl font-semibold">
        <span className="flex size-9 items-center justify-center rounded-full bg-brand-soft text-brand">
          <Mail aria-hidden="true" className="size-4.5" />
        </span>
        Emails
      </h2>
      <p className="text-ink-soft">
        Everything below also appears under Notifications (the bell), whatever you choose here. Emails about
        money, parcels and deadlines are always sent while you have an account: you need them to buy and sell
        safely.
      </p>
      <QueryView
        query={preferences}
        pending={<RowsSkeleton label="Loading your email settings" rows={['h-10 w-full', 'h-10 w-2/3']} />}
        error={(message, retry) => (
          <Alert tone="error">
            {message}{' '}
            <button type="button" className="font-semibold text-brand underline" onClick={retry}>
              Try again
            </button>
          </Alert>
        )}
      >
        {(data) => (
          <div className="flex flex-col gap-6">
            {NOTIFICATION_GROUPS.map((group) => {
              const kinds = NOTIFICATION_KINDS.filter(
                (kind) => NOTIFICATION_KIND_INFO[kind].group === group.id,
              );
              // Kinds always emailed for the same reason are one row: the reason once, then what.
              const always = kinds.filter((kind) => NOTIFICATION_KIND_INFO[kind].email.kind === 'always');
              const reason = always
                .map((kind) => NOTIFICATION_KIND_INFO[kind].email)
                .find((e) => e.kind === 'always');
              const rest = kinds.filter((kind) => NOTIFICATION_KIND_INFO[kind].email.kind !== 'always');
              return (
                <fieldset key={group.id} className="flex flex-col gap-2">
                  <legend className="mb-1 font-semibold text-ink">{group.label}</legend>
                  <ul className="flex flex-col divide-y divide-line rounded-lg border border-line">
                    {always.length && reason?.kind === 'always' ? (
                      <li className="flex flex-col gap-2 p-3" data-testid={`email-always-${group.id}`}>
                        <div className="flex flex-wrap items-center justify-between gap-2">
                          <p className="text-sm text-ink-muted">{reason.reason}</p>
                          <span className="flex shrink-0 items-center gap-1.5 text-sm font-medium text-ink-soft">
                            <Lock aria-hidden="true" className="size-4" />
                            Always emailed
                          </span>
                        </div>
                        <ul className="flex flex-wrap gap-1.5">
                          {always.map((kind) => (
                            <li
                              key={kind}
                              data-testid={`email-${kind}`}
                              className="rounded-full bg-paper-deep px-2.5 py-0.5 text-sm text-ink"
                            >
                              {NOTIFICATION_KIND_INFO[kind].label}
                            </li>
                          ))}
                        </ul>
                      </li>
                    ) : null}
                    {rest.map((kind) => (
                      <KindRow
                        key={kind}
                        kind={kind}
                        lists={data.lists}
                        saving={save.isPending}
                        onChange={(list, enabled) => save.mutate({ list, enabled })}
                      />
                    ))}
                  </ul>
                </fieldset>
              );
            })}
          </div>
        )}
      </QueryView>
    </section>
  );
}

function KindRow({
  kind,
  lists,
  saving,
  onChange,
}: {
  kind: NotificationKind;
  lists: EmailPreferences['lists'];
  saving: boolean;
  onChange: (list: OptionalEmailList, enabled: boolean) => void;
}) {
  const info = NOTIFICATION_KIND_INFO[kind];
  const email = info.email;
  const id = `email-${kind}`;
  return (
    <li className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center sm:justify-between" data-testid={id}>
      <div className="min-w-0">
        {email.kind === 'optional' ? (
          <label htmlFor={id} className="font-medium text-ink">
            {info.label}
          </label>
        ) : (
          <p className="font-medium text-ink">{info.label}</p>
        )}
        <p className="text-sm text-ink-muted">
          {email.kind === 'always'
            ? email.reason
            : email.kind === 'optional'
              ? email.label
              : 'In the app only: we don’t email this.'}
        </p>
      </div>
      {email.kind === 'optional' ? (
        <label className="flex shrink-0 items-center gap-2 text-sm font-medium">
          <input
            id={id}
            type="checkbox"
            role="switch"
            className={cn('size-5 accent-brand', saving ? 'opacity-60' : '')}
            checked={lists[email.list]}
            aria-checked={lists[email.list]}
            disabled={saving}
            onChange={(event) => onChange(email.list, event.target.checked)}
          />
          <span aria-hidden="true">{lists[email.list] ? 'Emailed' : 'Off'}</span>
        </label>
      ) : email.kind === 'always' ? (
        <span className="flex shrink-0 items-center gap-1.5 text-sm text-ink-muted">
          <Lock aria-hidden="true" className="size-4" />
          Always emailed
        </span>
      ) : (
        <span className="shrink-0 text-sm text-ink-muted">Not emailed</span>
      )}
    </li>
  );
}
