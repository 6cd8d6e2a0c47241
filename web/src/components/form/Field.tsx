import { type ReactNode, useId } from 'react';
import { cn } from '../../lib/utils.ts';
import { Label } from '../ui/input.tsx';

/** What a field's control needs to be tied to its label, hint and error. */
export interface FieldControlProps {
  id: string;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
}

type FieldProps = {
  label: ReactNode;
  /** Shown under the label; read out with the control. */
  hint?: ReactNode;
  error?: string | undefined;
  /** Next to the label, e.g. a "Forgot your password?" link. */
  aside?: ReactNode;
  optional?: boolean;
  className?: string;
  children: (control: FieldControlProps) => ReactNode;
};

/** A labelled form control with an optional hint and its inline error. */
export function Field({ label, hint, error, aside, optional, className, children }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <div className="flex items-baseline justify-between gap-3">
        <Label htmlFor={id}>
          {label}
          {optional ? <span className="ml-1 font-normal text-ink-muted">(optional)</span> : null}
        </Label>
        {/* A link beside the label is a full 24 px target (WCAG 2.5.8), not just its text's height. */}
        {aside ? <span className="[&>a]:inline-flex [&>a]:min-h-6 [&>a]:items-center">{aside}</span> : null}
      </div>
      {hint ? (
        <p id={hintId} className="-mt-0.5 text-sm text-ink-muted">
          {hint}
        </p>
      ) : null}
      {children({ id, 'aria-invalid': Boolean(error), 'aria-describedby': describedBy })}
      {error ? (
        <p id={errorId} className="text-sm font-medium text-destructive" data-testid="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
