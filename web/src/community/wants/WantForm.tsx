import {
  BOOK_FORMAT_LABELS,
  BOOK_FORMATS,
  type BookFormat,
  CONDITION_LABELS,
  CONDITIONS,
  type Condition,
  NO_CONDITIONS,
  parsePounds,
  poundsString,
  WANT_ALERT_LABELS,
  WANT_ALERTS,
  WANT_MESSAGES,
  type WantAlerts,
  type WantConditions,
  wantConditionsSchema,
} from '@reshelf/contracts';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';

export interface WantFormValue {
  conditions: WantConditions;
  alerts: WantAlerts;
}

const CHECKS = [
  ['firstEdition', 'First edition'],
  ['signed', 'Signed'],
  ['dustJacket', 'With its dust jacket'],
  ['noPrintOnDemand', 'No print-on-demand copies'],
  ['noBookClub', 'No book-club editions'],
] as const satisfies readonly (readonly [keyof WantConditions, string])[];

/**
 * The conditions a copy must meet and how the member is told: checkboxes, the lowest condition,
 * the most they'd pay all-in (in pounds) and the format. Empty means any copy.
 */
export function WantForm({
  initial,
  submitLabel,
  busy,
  onSubmit,
  onCancel,
  label,
  focusFirst = false,
  error,
  children,
}: {
  initial?: WantFormValue;
  submitLabel: string;
  busy: boolean;
  onSubmit: (value: WantFormValue) => void;
  onCancel?: () => void;
  /** The form's name for assistive technology ("Conditions for Dracula"). */
  label?: string;
  /** Move focus to the form's first field when it opens (a form opened in place by a button). */
  focusFirst?: boolean;
  /** What went wrong saving (the API's words), shown beside Save. */
  error?: string | null;
  /** What comes first in the form (the book page's "any edition or this edition"). */
  children?: React.ReactNode;
}) {
  const id = useId();
  const [conditions, setConditions] = useState<WantConditions>(initial?.conditions ?? NO_CONDITIONS);
  const [alerts, setAlerts] = useState<WantAlerts>(initial?.alerts ?? 'instant');
  const [price, setPrice] = useState(
    initial?.conditions.maxAllInMinor ? poundsString(initial.conditions.maxAllInMinor) : '',
  );
  const [priceError, setPriceError] = useState<string | null>(null);
  const set = (change: Partial<WantConditions>) => setConditions((before) => ({ ...before, ...change }));
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (focusFirst) form.current?.querySelector<HTMLElement>('input, select, textarea')?.focus();
  }, [focusFirst]);

  /** The typed price in pence (null for any price), or undefined when it is not a price. */
  function typedPrice(typed: string): number | null | undefined {
    if (!typed.trim()) return null;
    const minor = parsePounds(typed);
    // The conditions' own rule for the price (whole pence, 1p to the limit).
    return minor !== null && wantConditionsSchema.shape.maxAllInMinor.safeParse(minor).success
      ? minor
      : undefined;
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const maxAllInMinor = typedPrice(price);
    if (maxAllInMinor === undefined) {
      setPriceError(WANT_MESSAGES.maxPriceTyped);
      return;
    }
    setPriceError(null);
    onSubmit({ conditions: { ...conditions, maxAllInMinor }, alerts });
  }

  return (
    <form
      ref={form}
      onSubmit={submit}
      className="mt-3 flex flex-col gap-4 text-sm"
      data-testid="want-form"
      aria-label={label}
      noValidate
    >
      {children}
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 font-semibold text-ink">Only copies that are…</legend>
        {CHECKS.map(([key, label]) => (
          <label key={key} className="flex min-h-9 items-center gap-2">
            <input
              type="checkbox"
              className="size-4 accent-brand"
              checked={conditions[key] as boolean}
              onChange={(event) => set({ [key]: event.target.checked })}
            />
            {label}
          </label>
        ))}
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-3">
        <label className="flex flex-col gap-1" htmlFor={`${id}-condition`}>
          <span className="font-semibold text-ink">Condition at least</span>
          <select
            id={`${id}-condition`}
            value={conditions.minCondition ?? ''}
            onChange={(event) => set({ minCondition: (event.target.value || null) as Condition | null })}
            className="h-10 rounded-md border border-line bg-white px-2 text-ink"
          >
            <option value="">Any condition</option>
            {CONDITIONS.map((condition) => (
              <option key={condition} value={condition}>
                {CONDITION_LABELS[condition]}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1" htmlFor={`${id}-format`}>
          <span className="font-semibold text-ink">Format</span>
          <select
            id={`${id}-format`}
            value={conditions.format ?? ''}
            onChange={(event) => set({ format: (event.target.value || null) as BookFormat | null })}
            className="h-10 rounded-md border border-line bg-white px-2 text-ink"
          >
            <option value="">Any format</option>
            {BOOK_FORMATS.map((format) => (
              <option key={format} value={format}>
                {BOOK_FORMAT_LABELS[format]}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1" htmlFor={`${id}-price`}>
          <span className="font-semibold text-ink">Most you’d pay, all-in (£)</span>
          <input
            id={`${id}-price`}
            inputMode="decimal"
            value={price}
            placeholder="Any price"
            aria-invalid={priceError ? true : undefined}
            aria-describedby={priceError ? `${id}-price-error` : undefined}
            onChange={(event) => {
              setPrice(event.target.value);
              // Once it has been refused, the words go as soon as what is typed is a price.
              if (priceError && typedPrice(event.target.value) !== undefined) setPriceError(null);
            }}
            className="h-10 rounded-md border border-line bg-white px-2 text-ink"
          />
          {priceError ? (
            <span id={`${id}-price-error`} className="text-destructive">
              {priceError}
            </span>
          ) : null}
        </label>
      </div>
      <label className="flex flex-col gap-1" htmlFor={`${id}-alerts`}>
        <span className="font-semibold text-ink">Tell me</span>
        <select
          id={`${id}-alerts`}
          value={alerts}
          onChange={(event) => setAlerts(event.target.value as WantAlerts)}
          className="h-10 rounded-md border border-line bg-white px-2 text-ink"
        >
          {WANT_ALERTS.map((choice) => (
            <option key={choice} value={choice}>
              {WANT_ALERT_LABELS[choice]}
            </option>
          ))}
        </select>
      </label>
      {error ? (
        <p role="alert" className="text-destructive" data-testid="want-form-error">
          {error}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="brand" disabled={busy} data-testid="want-save">
          {submitLabel}
        </Button>
        {onCancel ? (
          <Button type="button" variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
      </div>
    </form>
  );
}
