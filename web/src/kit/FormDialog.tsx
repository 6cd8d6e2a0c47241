/**
 * A dialog holding one form: react-hook-form validated by a zod schema, a submit button that
 * shows it is sending, the server's refusal shown inside the form (on the field it names when the
 * server's input validation names one), and the dialog closing when the submit succeeded.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Loader2 } from 'lucide-react';
import { type ReactNode, useEffect } from 'react';
import {
  type DefaultValues,
  type FieldValues,
  type Path,
  type UseFormReturn,
  useForm,
} from 'react-hook-form';
import type { z } from 'zod';
import { Alert } from '../components/ui/alert.tsx';
import { Button, type ButtonVariant } from '../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../components/ui/dialog.tsx';
import { apiErrorMessage, apiFieldErrors } from '../lib/api-errors.ts';

/**
 * Puts a failed submit's error on the form: each of the server's field errors that names one of
 * the form's fields on that field, anything else as the form's own error (errors.root.server).
 */
export function showServerError<V extends FieldValues>(
  form: UseFormReturn<V, unknown, unknown>,
  error: unknown,
) {
  const fields = apiFieldErrors(error);
  const known = Object.keys(form.getValues());
  let placed = 0;
  for (const [field, message] of Object.entries(fields)) {
    if (known.includes(field)) {
      form.setError(field as Path<V>, { type: 'server', message });
      placed += 1;
    }
  }
  if (placed === 0) form.setError('root.server', { type: 'server', message: apiErrorMessage(error) });
}

export interface FormDialogProps<S extends z.ZodType<FieldValues, FieldValues>> {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  schema: S;
  /** The form's values each time it opens. */
  defaultValues: DefaultValues<z.input<S>>;
  /** Sends the form (a mutation's mutateAsync): resolve to close, throw to show the error. */
  onSubmit: (values: z.output<S>) => Promise<unknown>;
  submitLabel: ReactNode;
  submitVariant?: ButtonVariant;
  cancelLabel?: string;
  /** Class for the dialog box (e.g. a wider max-w-lg). */
  className?: string;
  testId?: string;
  children: (form: UseFormReturn<z.input<S>, unknown, z.output<S>>) => ReactNode;
}

export function FormDialog<S extends z.ZodType<FieldValues, FieldValues>>({
  open,
  onOpenChange,
  title,
  description,
  schema,
  defaultValues,
  onSubmit,
  submitLabel,
  submitVariant = 'brand',
  cancelLabel = 'Cancel',
  className,
  testId,
  children,
}: FormDialogProps<S>) {
  const form = useForm<z.input<S>, unknown, z.output<S>>({
    // The resolver's overloads cannot see through the generic S; its types are those of S.
    resolver: zodResolver(schema as never) as never,
    defaultValues,
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: only on opening: editing must not be reset.
  useEffect(() => {
    if (open) form.reset(defaultValues);
  }, [open]);
  const pending = form.formState.isSubmitting;
  const serverError = form.formState.errors.root?.server?.message;

  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit(values);
      onOpenChange(false);
    } catch (error) {
      showServerError(form as never, error);
    }
  });

  return (
    <Dialog open={open} onOpenChange={(next) => (pending ? undefined : onOpenChange(next))}>
      <DialogContent className={className} data-testid={testId}>
        <form noValidate onSubmit={submit} className="flex flex-col gap-4">
          <DialogTitle className="pr-8">{title}</DialogTitle>
          {description ? <DialogDescription>{description}</DialogDescription> : null}
          {children(form)}
          {serverError ? <Alert tone="error">{serverError}</Alert> : null}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="outline" disabled={pending} onClick={() => onOpenChange(false)}>
              {cancelLabel}
            </Button>
            <Button type="submit" variant={submitVariant} disabled={pending} aria-busy={pending || undefined}>
              {pending ? <Loader2 aria-hidden="true" className="motion-safe:animate-spin" /> : null}
              {submitLabel}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
