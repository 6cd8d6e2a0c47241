/**
 * The form to review the other side of an order: stars and optional words. On
 * /account/reviews for each order waiting for one, and on the order's own page.
 */
import { countOf, type PendingReview, REVIEW_MAX_LENGTH } from '@reshelf/contracts';
import { Star } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Label, Textarea } from '../../components/ui/input.tsx';
import { notify } from '../../components/ui/notify.ts';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { cn } from '../../lib/utils.ts';
import { useWriteReview } from './hooks.ts';

const dayFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  timeZone: 'Europe/London',
});
/** "12 December": when a review was published or its window closes. */
export const day = (iso: string) => dayFormat.format(new Date(iso));

function StarPicker({ value, onChange }: { value: number; onChange: (stars: number) => void }) {
  const name = useId();
  return (
    <fieldset>
      <legend className="text-sm font-semibold">Stars</legend>
      <div className="mt-1 flex gap-1">
        {[1, 2, 3, 4, 5].map((n) => (
          <label
            key={n}
            className="relative cursor-pointer rounded-md p-1 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand"
          >
            <input
              type="radio"
              name={name}
              value={n}
              checked={value === n}
              onChange={() => onChange(n)}
              aria-label={countOf(n, 'star', 'stars')}
              className="absolute inset-0 size-full cursor-pointer opacity-0"
            />
            <Star
              aria-hidden="true"
              className={cn('size-7', n <= value ? 'fill-amber-500 text-amber-500' : 'text-ink/30')}
            />
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export function WriteReview({
  pending,
  as: Wrapper = 'li',
}: {
  pending: PendingReview;
  as?: 'li' | 'section';
}) {
  const [stars, setStars] = useState(0);
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const write = useWriteReview();
  const textId = useId();
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (stars === 0) {
      setError('Choose from 1 to 5 stars.');
      return;
    }
    setError(null);
    try {
      const result = await write.mutateAsync({ orderId: pending.orderId, stars, body });
      notify.success(
        result.published
          ? 'Thanks — both reviews are now published'
          : `Thanks — your review is published when ${pending.counterpartName} has reviewed you, or on ${day(pending.closesAt)}`,
      );
    } catch (caught) {
      setError(apiErrorMessage(caught));
    }
  }
  const what = pending.role === 'buyer' ? 'as a seller' : 'as a buyer';
  return (
    <Wrapper className="rounded-xl border border-line bg-paper p-4" data-testid="pending-review">
      <h3 className="font-serif text-lg font-semibold">
        How was {pending.counterpartName} {what}?
      </h3>
      <p className="text-sm text-ink-muted">
        Order {pending.reference} · “{pending.title}” · review by {day(pending.closesAt)}
      </p>
      <form className="mt-3 flex flex-col gap-3" onSubmit={submit} noValidate>
        <StarPicker
          value={stars}
          onChange={(chosen) => {
            setStars(chosen);
            setError(null);
          }}
        />
        <div className="flex flex-col gap-1">
          <Label htmlFor={textId}>Your review (optional)</Label>
          <Textarea
            id={textId}
            rows={3}
            maxLength={REVIEW_MAX_LENGTH}
            value={body}
            onChange={(event) => setBody(event.target.value)}
          />
          <span className="text-xs text-ink-muted">
            {body.length} of {REVIEW_MAX_LENGTH} characters
          </span>
        </div>
        {error ? (
          <p role="alert" className="text-sm font-semibold text-destructive">
            {error}
          </p>
        ) : null}
        <div>
          <Button type="submit" variant="brand" disabled={write.isPending}>
            {write.isPending ? 'Sending…' : 'Send review'}
          </Button>
        </div>
      </form>
    </Wrapper>
  );
}
