/**
 * /account/removals/:removalId: something our team removed that the member posted, as the
 * notification and email about it link here: which content, the rule it broke, what the team
 * did, and the appeal (once, in their own words, until the date shown; someone else on the team
 * decides it). Once decided it shows the decision and its reason.
 */
import { APPEAL_TEXT_MAX, APPEAL_WINDOW_DAYS, type Removal } from '@reshelf/contracts';
import { type FormEvent, useId, useState } from 'react';
import { useParams } from 'react-router-dom';
import { PageBody, PageHeader } from '../../components/PageHeader.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Label, Textarea } from '../../components/ui/input.tsx';
import { notify } from '../../components/ui/notify.ts';
import { QueryView } from '../../kit/index.ts';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { trpc } from '../../lib/trpc.ts';

const longDate = (iso: string) =>
  new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });

const STATUS_WORDS = {
  open: 'Your appeal is with our team',
  upheld: 'Your appeal was upheld',
  rejected: 'Your appeal was not upheld',
} as const;

export function RemovalPage() {
  const { removalId = '' } = useParams();
  usePageMeta('Why we removed something you posted');
  const query = trpc.community.moderation.removals.get.useQuery({ removalId });
  return (
    <>
      <PageHeader
        title="Why we removed something you posted"
        description="What our team removed, why, and how to ask us to look again."
      />
      <PageBody className="max-w-3xl">
        <QueryView query={query} pending="Loading…">
          {(removal) => <RemovalDetails removal={removal} />}
        </QueryView>
      </PageBody>
    </>
  );
}

function RemovalDetails({ removal }: { removal: Removal }) {
  return (
    <div className="flex flex-col gap-6" data-testid="removal">
      <section className="rounded-xl border border-line bg-paper p-5" aria-labelledby="removal-what">
        <h2 id="removal-what" className="text-lg font-semibold">
          We removed {removal.what}
        </h2>
        <dl className="mt-3 grid gap-3 text-sm sm:grid-cols-[10rem_1fr]">
          <dt className="font-semibold">When</dt>
          <dd>{longDate(removal.removedAt)}</dd>
          {removal.harmLabel ? (
            <>
              <dt className="font-semibold">Reported as</dt>
              <dd>{removal.harmLabel}</dd>
            </>
          ) : null}
          <dt className="font-semibold">The rule it broke</dt>
          <dd className="break-words" data-testid="removal-reason">
            {removal.reason}
          </dd>
          <dt className="font-semibold">What we did</dt>
          <dd>{removal.action}</dd>
        </dl>
      </section>
      {removal.appeal ? (
        <section
          className="rounded-xl border border-line bg-paper p-5"
          aria-labelledby="appeal-status"
          data-testid="appeal"
          data-status={removal.appeal.status}
        >
          <h2 id="appeal-status" className="text-lg font-semibold">
            {STATUS_WORDS[removal.appeal.status]}
          </h2>
          <p className="mt-2 text-sm text-ink-muted">You wrote on {longDate(removal.appeal.at)}:</p>
          <blockquote className="mt-1 border-l-2 border-line pl-3 text-sm break-words italic">
            “{removal.appeal.text}”
          </blockquote>
          {removal.appeal.status === 'open' ? (
            <p className="mt-3 text-sm">
              Someone on our team who did not remove it will look again and tell you what they decide.
            </p>
          ) : (
            <p className="mt-3 text-sm break-words" data-testid="appeal-decision">
              {removal.appeal.status === 'upheld'
                ? 'We agree with you and have put it back. '
                : 'The removal stands; this is our final decision. '}
              {removal.appeal.decisionNote ? `Our reason: ${removal.appeal.decisionNote}` : ''}
            </p>
          )}
        </section>
      ) : removal.canAppeal ? (
        <AppealForm removal={removal} />
      ) : (
        <p className="rounded-xl border border-line bg-paper p-5 text-sm">
          The time to appeal ({APPEAL_WINDOW_DAYS} days) ended on {longDate(removal.appealBy)}.
        </p>
      )}
    </div>
  );
}

function AppealForm({ removal }: { removal: Removal }) {
  const id = useId();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const utils = trpc.useUtils();
  const appeal = trpc.community.moderation.removals.appeal.useMutation({
    onSuccess: (updated) => {
      utils.community.moderation.removals.get.setData({ removalId: removal.id }, updated);
      notify.success('Your appeal is sent');
    },
  });
  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      await appeal.mutateAsync({ removalId: removal.id, text });
    } catch (caught) {
      setError(apiErrorMessage(caught));
    }
  }
  return (
    <form
      className="flex flex-col gap-3 rounded-xl border border-line bg-paper p-5"
      onSubmit={submit}
      aria-labelledby={`${id}-title`}
      noValidate
    >
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        Appeal
      </h2>
      <p className="text-sm">
        If you think we got it wrong, tell us why by {longDate(removal.appealBy)}. Someone on our team who did
        not remove it will look again, and we will tell you what they decide. You can appeal once.
      </p>
      <div className="flex flex-col gap-1">
        <Label htmlFor={`${id}-text`}>Why the removal was wrong</Label>
        <Textarea
          id={`${id}-text`}
          value={text}
          maxLength={APPEAL_TEXT_MAX}
          className="min-h-28"
          onChange={(event) => setText(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
      </div>
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm font-semibold text-destructive">
          {error}
        </p>
      ) : null}
      <div>
        <Button type="submit" variant="brand" disabled={appeal.isPending}>
          Send appeal
        </Button>
      </div>
    </form>
  );
}
