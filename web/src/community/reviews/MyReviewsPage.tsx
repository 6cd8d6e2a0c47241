/**
 * /account/reviews: the orders the member may still review (each with its form), the
 * reviews they wrote (private until the other side's is in or the window closes), and the
 * published reviews of them, with their one reply and a way to report one.
 */
import { type MyReview, REVIEW_MAX_LENGTH, REVIEW_WINDOW_DAYS } from '@reshelf/contracts';
import { Flag } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { PageBody, PageHeader } from '../../components/PageHeader.tsx';
import { Stars } from '../../components/rating.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Label, Textarea } from '../../components/ui/input.tsx';
import { notify } from '../../components/ui/notify.ts';
import { QueryView } from '../../kit/index.ts';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { trpc } from '../../lib/trpc.ts';
import { ReportDialog } from '../moderation/ReportDialog.tsx';
import { useReplyToReview, useReportReview } from './hooks.ts';
import { day, WriteReview } from './WriteReview.tsx';

function ReplyForm({ review }: { review: MyReview }) {
  const [open, setOpen] = useState(false);
  const [reply, setReply] = useState('');
  const [error, setError] = useState<string | null>(null);
  const send = useReplyToReview();
  const id = useId();
  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      await send.mutateAsync({ reviewId: review.id, reply });
      notify.success('Your reply is published');
    } catch (caught) {
      setError(apiErrorMessage(caught));
    }
  }
  if (!open) {
    return (
      <div className="mt-3">
        <Button variant="outline" size="sm" onClick={() => setOpen(true)}>
          Reply
        </Button>
      </div>
    );
  }
  return (
    <form className="mt-3 flex flex-col gap-2" onSubmit={submit} noValidate>
      <Label htmlFor={id}>Reply (once, shown under the review)</Label>
      <Textarea
        id={id}
        rows={2}
        maxLength={REVIEW_MAX_LENGTH}
        value={reply}
        onChange={(event) => setReply(event.target.value)}
      />
      {error ? (
        <p role="alert" className="text-sm font-semibold text-destructive">
          {error}
        </p>
      ) : null}
      <div>
        <Button type="submit" variant="outline" size="sm" disabled={send.isPending}>
          Send reply
        </Button>
      </div>
    </form>
  );
}

function ReviewCard({ review, given }: { review: MyReview; given: boolean }) {
  const [reporting, setReporting] = useState(false);
  const report = useReportReview();
  return (
    <li
      className="rounded-xl border border-line bg-paper p-4"
      data-testid={given ? 'given-review' : 'received-review'}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Stars value={review.stars} />
        <span className="text-xs text-ink-muted">
          {review.removedReason
            ? 'Removed by Reshelf'
            : review.publishedAt
              ? `Published ${day(review.publishedAt)}`
              : 'Private until both reviews are in or the window closes'}
        </span>
      </div>
      {review.body ? <p className="mt-2">{review.body}</p> : null}
      <p className="mt-2 text-sm text-ink-muted">
        {given ? `You reviewed ${review.counterpartName}` : `${review.counterpartName} reviewed you`} · order{' '}
        {review.reference} · “{review.title}”
      </p>
      {review.removedReason ? (
        <p className="mt-2 text-sm text-destructive">Removed: {review.removedReason}</p>
      ) : null}
      {review.reply ? (
        <div className="mt-3 border-l-2 border-brand/40 pl-3 text-sm">
          <p className="font-semibold text-ink-soft">
            {given ? `${review.counterpartName} replied` : 'Your reply'}
          </p>
          <p>{review.reply}</p>
        </div>
      ) : null}
      {review.canReply ? <ReplyForm review={review} /> : null}
      {review.canReport ? (
        <>
          <Button
            variant="link"
            className="mt-2 h-auto gap-1.5 px-0 text-sm text-ink-muted hover:text-ink"
            onClick={() => setReporting(true)}
          >
            <Flag aria-hidden="true" className="size-4" />
            Report this review
          </Button>
          <ReportDialog
            kind="review"
            open={reporting}
            onOpenChange={setReporting}
            title="Report this review"
            description="Tell our team what breaks our rules in this review. Its author isn’t told who reported it."
            send={(input) => report.mutateAsync({ reviewId: review.id, ...input })}
          />
        </>
      ) : null}
    </li>
  );
}

export function MyReviewsPage() {
  usePageMeta('Your reviews');
  const query = trpc.community.reviews.member.mine.useQuery();
  return (
    <>
      <PageHeader
        title="Your reviews"
        crumbs={[{ to: '/account', label: 'Account' }]}
        description={`After an order completes, you and the other person have ${REVIEW_WINDOW_DAYS} days to review each other. Both reviews are published together, when both are in or when the ${REVIEW_WINDOW_DAYS} days are over, so neither can answer the other’s.`}
      />
      <PageBody>
        <QueryView query={query} pending="Loading your reviews…">
          {(data) => (
            <div className="flex flex-col gap-8">
              <section aria-labelledby="to-review">
                <h2 id="to-review" className="mb-3 font-serif text-xl font-semibold">
                  To review
                </h2>
                {data.pending.length ? (
                  <ul className="grid gap-3">
                    {data.pending.map((pending) => (
                      <WriteReview key={pending.orderId} pending={pending} />
                    ))}
                  </ul>
                ) : (
                  <p className="text-ink-muted">Nothing to review right now.</p>
                )}
              </section>
              <section aria-labelledby="given">
                <h2 id="given" className="mb-3 font-serif text-xl font-semibold">
                  Reviews you wrote
                </h2>
                {data.given.length ? (
                  <ul className="grid gap-3 md:grid-cols-2">
                    {data.given.map((review) => (
                      <ReviewCard key={review.id} review={review} given />
                    ))}
                  </ul>
                ) : (
                  <p className="text-ink-muted">You haven’t written a review yet.</p>
                )}
              </section>
              <section aria-labelledby="received">
                <h2 id="received" className="mb-3 font-serif text-xl font-semibold">
                  Reviews of you
                </h2>
                {data.received.length ? (
                  <ul className="grid gap-3 md:grid-cols-2">
                    {data.received.map((review) => (
                      <ReviewCard key={review.id} review={review} given={false} />
                    ))}
                  </ul>
                ) : (
                  <p className="text-ink-muted">No published reviews of you yet.</p>
                )}
              </section>
            </div>
          )}
        </QueryView>
      </PageBody>
    </>
  );
}
