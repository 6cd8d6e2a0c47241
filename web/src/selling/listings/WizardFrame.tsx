import { SELLING_STEP_LABELS, SELLING_STEPS, type SellingStep } from '@reshelf/contracts';
import { Check } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { SubmitButton } from '../../components/form/SubmitButton.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { cn } from '../../lib/utils.ts';
import { wizardPath } from './sell-state.ts';

/**
 * The wizard's frame: where the person is (a bar and "Step 3 of 7" on a phone, every step
 * named on wider screens), the step's heading and its form. Steps already passed are links.
 */
export function WizardFrame({
  step,
  listingId,
  done = [],
  title,
  description,
  children,
}: {
  step: SellingStep;
  listingId?: string;
  /** Steps with nothing missing (links back to them are offered). */
  done?: SellingStep[];
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
}) {
  const index = SELLING_STEPS.indexOf(step);
  const total = SELLING_STEPS.length;
  return (
    <div
      className="mx-auto w-full max-w-3xl px-4 py-6 sm:px-6 sm:py-10"
      data-testid="sell-wizard"
      data-step={step}
    >
      <nav aria-label="Listing steps" className="mb-6">
        <p className="flex items-baseline justify-between text-sm font-semibold text-ink-muted md:hidden">
          <span>
            Step {index + 1} of {total}
          </span>
          <span className="text-ink">{SELLING_STEP_LABELS[step]}</span>
        </p>
        <div
          className="mt-2 h-1.5 overflow-hidden rounded-full bg-paper-edge md:hidden"
          role="progressbar"
          aria-label="Progress"
          aria-valuemin={1}
          aria-valuemax={total}
          aria-valuenow={index + 1}
          aria-valuetext={`Step ${index + 1} of ${total}: ${SELLING_STEP_LABELS[step]}`}
        >
          <div
            className="h-full rounded-full bg-brand transition-all"
            style={{ width: `${((index + 1) / total) * 100}%` }}
          />
        </div>
        <ol className="hidden items-center gap-1 md:flex">
          {SELLING_STEPS.map((name, i) => {
            const current = name === step;
            const passed = i < index;
            const reachable = listingId && name !== 'isbn' && (passed || done.includes(name)) && !current;
            const marker = (
              <span
                className={cn(
                  'grid size-6 shrink-0 place-items-center rounded-full text-xs font-bold',
                  current
                    ? 'bg-brand text-brand-foreground'
                    : passed
                      ? 'bg-moss text-paper'
                      : 'bg-paper-edge text-ink-muted',
                )}
              >
                {passed ? <Check aria-hidden="true" className="size-3.5" /> : i + 1}
              </span>
            );
            const label = (
              <>
                {marker}
                <span className={cn('truncate', current ? 'text-ink' : 'text-ink-muted')}>
                  {SELLING_STEP_LABELS[name]}
                </span>
              </>
            );
            return (
              <li key={name} className={cn('flex items-center gap-1', i < total - 1 && 'flex-1')}>
                {reachable ? (
                  <Link
                    to={wizardPath(listingId, name)}
                    className="flex items-center gap-1.5 rounded-md py-1 pr-1 text-xs font-semibold hover:underline"
                  >
                    {label}
                  </Link>
                ) : (
                  <span
                    aria-current={current ? 'step' : undefined}
                    className="flex items-center gap-1.5 py-1 pr-1 text-xs font-semibold"
                  >
                    {label}
                  </span>
                )}
                {i < total - 1 ? <span aria-hidden="true" className="h-px min-w-3 flex-1 bg-line" /> : null}
              </li>
            );
          })}
        </ol>
      </nav>
      <h1 className="text-3xl font-semibold break-words sm:text-4xl">{title}</h1>
      {description ? <div className="mt-2 text-ink-muted">{description}</div> : null}
      <div className="mt-6">{children}</div>
    </div>
  );
}

/** The row of buttons under a step's form: back on the left, the main action on the right. */
export function StepActions({ back, children }: { back?: ReactNode; children: ReactNode }) {
  return (
    <div className="mt-8 flex flex-col-reverse gap-3 border-t border-line pt-5 sm:flex-row sm:items-center sm:justify-between">
      <div>{back}</div>
      <div className="flex flex-col gap-3 sm:flex-row">{children}</div>
    </div>
  );
}

/** The end of a wizard step's form: the server's objection, if any, then back and submit. */
export function StepFormFooter({
  problem,
  back,
  pending,
  submitLabel,
  problemClassName,
}: {
  problem: ReactNode;
  back?: ReactNode;
  pending: boolean;
  submitLabel: ReactNode;
  problemClassName?: string;
}) {
  return (
    <>
      {problem ? (
        <Alert tone="error" className={problemClassName} data-testid="form-error">
          {problem}
        </Alert>
      ) : null}
      <StepActions back={back}>
        <SubmitButton pending={pending} className="sm:w-auto" data-testid="step-submit">
          {submitLabel}
        </SubmitButton>
      </StepActions>
    </>
  );
}
