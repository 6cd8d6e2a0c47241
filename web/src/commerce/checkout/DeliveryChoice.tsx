/**
 * The buyer's delivery choice at checkout (issue 37): home delivery (tracked), preselected, or a
 * locker or parcel shop near a postcode. Every price and date is the server's quote (its options
 * for both methods); nothing here computes one.
 */
import {
  arrivesByWords,
  type DeliveryChoice,
  type DeliveryMethod,
  type DeliveryQuote,
  type DropOffPoint,
  distanceWords,
  dropOffPointKindWords,
  formatPence,
  londonWeekday,
  normalisePostcode,
  openingHoursToday,
  openingHoursWeek,
  type PostageBand,
} from '@reshelf/contracts';
import { MapPin } from 'lucide-react';
import { useId, useState } from 'react';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';

/** What the buyer has picked so far: a method, and for a drop-off the point (null until they pick one). */
export interface DeliveryPick {
  method: DeliveryMethod;
  point: DropOffPoint | null;
}

export const HOME_PICK: DeliveryPick = { method: 'home', point: null };

/** Said when the buyer chose a drop-off point but not which one. */
export const CHOOSE_A_POINT = 'Choose a locker or parcel shop';

/** The choice the server prices: a drop-off only once a point is picked (home delivery until then). */
export function choiceOf(pick: DeliveryPick): DeliveryChoice | undefined {
  if (pick.method === 'drop_off' && pick.point) return { method: 'drop_off', pointId: pick.point.id };
  return undefined;
}

/** The choice checkout sends: null when a drop-off point is still to be picked. */
export function startChoiceOf(pick: DeliveryPick): DeliveryChoice | null {
  if (pick.method === 'home') return { method: 'home' };
  return pick.point ? { method: 'drop_off', pointId: pick.point.id } : null;
}

/** The quote's option for the picked method: the postage and total the page shows (the server's figures). */
export function pickedOption(delivery: DeliveryQuote, pick: DeliveryPick) {
  return delivery.options.find((option) => option.method === pick.method) ?? delivery.options[0];
}

export function DeliveryChoiceFieldset({
  delivery,
  pick,
  onPick,
  postcode,
  error,
  idPrefix = 'delivery',
}: {
  delivery: DeliveryQuote;
  pick: DeliveryPick;
  onPick: (pick: DeliveryPick) => void;
  /** The delivery address's postcode: the search starts there. */
  postcode: string;
  /** "Choose a locker or parcel shop", when the buyer tried to pay without one. */
  error: string | null;
  idPrefix?: string;
}) {
  const name = `${useId()}-${idPrefix}-method`;
  return (
    <fieldset className="flex flex-col gap-2" data-testid="delivery-choice">
      <legend className="mb-2 text-base font-semibold">How would you like it?</legend>
      {delivery.options.map((option) => (
        <label
          key={option.method}
          className={cn(
            'flex cursor-pointer items-start gap-3 rounded-xl border p-3 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand',
            pick.method === option.method ? 'border-brand bg-brand-soft/40' : 'border-line',
          )}
          data-testid={`delivery-option-${option.method}`}
        >
          <input
            type="radio"
            name={name}
            value={option.method}
            className="mt-1 size-4 shrink-0 accent-brand"
            checked={pick.method === option.method}
            onChange={() =>
              onPick(option.method === 'home' ? HOME_PICK : { method: 'drop_off', point: null })
            }
          />
          <span className="min-w-0">
            <span className="font-semibold text-ink">
              {option.label} {formatPence(option.postageMinor)}
            </span>
            <span className="block text-ink-soft" data-testid={`delivery-date-${option.method}`}>
              {arrivesByWords(option.expectedDeliveryOn)}
            </span>
          </span>
        </label>
      ))}
      {pick.method === 'drop_off' ? (
        <DropOffPicker
          band={delivery.band}
          initialPostcode={postcode}
          picked={pick.point}
          onPick={(point) => onPick({ method: 'drop_off', point })}
          error={error}
        />
      ) : null}
    </fieldset>
  );
}

function DropOffPicker({
  band,
  initialPostcode,
  picked,
  onPick,
  error,
}: {
  band: PostageBand;
  initialPostcode: string;
  picked: DropOffPoint | null;
  onPick: (point: DropOffPoint) => void;
  error: string | null;
}) {
  const [typed, setTyped] = useState(initialPostcode);
  const [searched, setSearched] = useState(normalisePostcode(initialPostcode) ?? '');
  const [postcodeError, setPostcodeError] = useState<string | null>(null);
  const fieldId = useId();
  const listName = useId();
  const points = trpc.commerce.checkout.dropOffPoints.useQuery(
    { postcode: searched, band },
    { enabled: searched !== '', retry: false, staleTime: 60_000 },
  );
  const weekday = londonWeekday(new Date());
  const search = () => {
    const normalised = normalisePostcode(typed);
    if (!normalised) {
      setPostcodeError('Enter a UK postcode, like SW1A 1AA');
      return;
    }
    setPostcodeError(null);
    setSearched(normalised);
  };
  return (
    <div className="mt-1 flex flex-col gap-3 rounded-xl border border-line p-3" data-testid="drop-off-picker">
      <div className="flex flex-col gap-1">
        <label htmlFor={fieldId} className="text-sm font-semibold">
          Postcode to search near
        </label>
        <div className="flex gap-2">
          <Input
            id={fieldId}
            value={typed}
            autoComplete="postal-code"
            className="max-w-48"
            aria-invalid={postcodeError ? true : undefined}
            aria-describedby={postcodeError ? `${fieldId}-error` : undefined}
            onChange={(event) => setTyped(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                search();
              }
            }}
          />
          <Button type="button" variant="outline" onClick={search}>
            <MapPin aria-hidden="true" className="size-4" />
            Find
          </Button>
        </div>
        {postcodeError ? (
          <p id={`${fieldId}-error`} className="text-sm text-red-700">
            {postcodeError}
          </p>
        ) : null}
      </div>
      {error ? (
        <p className="text-sm font-semibold text-red-700" role="alert" data-testid="drop-off-error">
          {error}
        </p>
      ) : null}
      {points.isError ? <Alert tone="error">{apiErrorMessage(points.error)}</Alert> : null}
      {points.isFetching && !points.data ? (
        <p className="text-sm text-ink-muted">Finding points near you…</p>
      ) : null}
      {points.data && points.data.points.length === 0 ? (
        <p className="text-sm text-ink-muted">
          No lockers or parcel shops near {searched}: try another postcode.
        </p>
      ) : null}
      {points.data?.points.length ? (
        <div
          role="radiogroup"
          aria-label={`Lockers and parcel shops near ${searched}`}
          className="flex flex-col gap-2"
        >
          {points.data.points.map((point) => (
            <div
              key={point.id}
              className={cn(
                'rounded-xl border p-3 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand',
                picked?.id === point.id ? 'border-brand bg-brand-soft/40' : 'border-line',
              )}
              data-testid="drop-off-point"
            >
              <label className="flex cursor-pointer items-start gap-3">
                <input
                  type="radio"
                  name={listName}
                  value={point.id}
                  className="mt-1 size-4 shrink-0 accent-brand"
                  checked={picked?.id === point.id}
                  onChange={() => onPick(point)}
                />
                <span className="min-w-0 break-words">
                  <span className="font-semibold text-ink">{point.name}</span>
                  <span className="block text-ink-soft">
                    {dropOffPointKindWords(point)}
                    {point.distanceM !== undefined ? ` · ${distanceWords(point.distanceM)} away` : ''}
                  </span>
                  <span className="block text-ink-soft">
                    {point.addressLine}, {point.town} {point.postcode}
                  </span>
                  <span className="block text-ink-soft">
                    {openingHoursToday(point.openingHours, weekday)}
                  </span>
                </span>
              </label>
              {point.openingHours.length ? (
                <details className="mt-1 ml-7 text-ink-soft">
                  <summary className="cursor-pointer text-sm font-semibold text-brand">
                    Opening hours<span className="sr-only"> of {point.name}</span>
                  </summary>
                  <ul className="mt-1 text-sm">
                    {openingHoursWeek(point.openingHours).map((line) => (
                      <li key={line}>{line}</li>
                    ))}
                  </ul>
                </details>
              ) : null}
            </div>
          ))}
        </div>
      ) : null}
    </div>
  );
}
