import { zodResolver } from '@hookform/resolvers/zod';
import { ISBN_MESSAGES, parseIsbn, type SellerListing } from '@reshelf/contracts';
import { ScanBarcode } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { z } from 'zod';
import { Field } from '../../components/form/Field.tsx';
import { SubmitButton } from '../../components/form/SubmitButton.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { notify } from '../../components/ui/notify.ts';
import { apiErrorMessage, apiFieldErrors } from '../../lib/api-errors.ts';
import { trpc } from '../../lib/trpc.ts';
import { resumeStep, wizardPath } from './sell-state.ts';

const isbnFormSchema = z.object({
  isbn: z.string().superRefine((value, ctx) => {
    const parsed = parseIsbn(value);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: ISBN_MESSAGES[parsed.problem] });
  }),
});
type IsbnValues = z.infer<typeof isbnFormSchema>;

interface DetectedBarcode {
  rawValue: string;
}
interface BarcodeDetectorLike {
  detect(source: ImageBitmapSource): Promise<DetectedBarcode[]>;
}
type BarcodeDetectorClass = {
  new (options: { formats: string[] }): BarcodeDetectorLike;
  getSupportedFormats(): Promise<string[]>;
};

/** The browser's barcode reader, when it has one that reads book barcodes (EAN-13). */
function useBarcodeDetector(): BarcodeDetectorLike | null {
  const [detector, setDetector] = useState<BarcodeDetectorLike | null>(null);
  useEffect(() => {
    const Detector = (window as unknown as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
    if (!Detector) return;
    let cancelled = false;
    Detector.getSupportedFormats()
      .then((formats) => {
        if (!cancelled && formats.includes('ean_13'))
          setDetector(new Detector({ formats: ['ean_13', 'ean_8'] }));
      })
      .catch(() => {});
    return () => {
      cancelled = true;
    };
  }, []);
  return detector;
}

/**
 * The first step: the ISBN, typed (the field has the focus) or read from a photo of the
 * barcode where the browser can. Submitting starts the draft (or carries on the one already
 * started for this ISBN) and goes to the book's details.
 */
export function IsbnForm({
  autoFocus = true,
  startWith,
}: {
  autoFocus?: boolean;
  /** Starts the draft another way (a charity's listing); the wizard's own start otherwise. */
  startWith?: (isbn: string | null) => Promise<{ listing: SellerListing; resumed: boolean }>;
}) {
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const start = trpc.selling.listings.start.useMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<IsbnValues>({
    resolver: zodResolver(isbnFormSchema),
    defaultValues: { isbn: '' },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { errors, isSubmitting } = form.formState;
  const detector = useBarcodeDetector();
  const scanInput = useRef<HTMLInputElement>(null);
  const [scanning, setScanning] = useState(false);

  const begin = async (isbn: string | null) => {
    setProblem(null);
    try {
      const result = await (startWith ? startWith(isbn) : start.mutateAsync({ isbn }));
      utils.selling.listings.get.setData({ listingId: result.listing.id }, result.listing);
      void utils.selling.listings.mine.invalidate();
      if (result.resumed) notify.info('You had started listing this book: carry on where you left off.');
      const step = result.resumed ? resumeStep(result.listing) : 'details';
      navigate(wizardPath(result.listing.id, step));
    } catch (error) {
      const fields = apiFieldErrors(error);
      if (fields.isbn) form.setError('isbn', { message: fields.isbn });
      else setProblem(apiErrorMessage(error));
    }
  };

  const onSubmit = form.handleSubmit((values) => begin(values.isbn));

  const onScan = async (file: File | undefined) => {
    if (!file || !detector) return;
    setScanning(true);
    try {
      const bitmap = await createImageBitmap(file);
      const codes = await detector.detect(bitmap);
      const isbn = codes.map((code) => code.rawValue).find((value) => parseIsbn(value).ok);
      if (!isbn) {
        form.setError('isbn', {
          message: 'We couldn’t read an ISBN barcode in that photo. Try again closer up, or type the number.',
        });
        return;
      }
      form.setValue('isbn', isbn, { shouldValidate: true });
      await begin(isbn);
    } catch {
      form.setError('isbn', { message: 'We couldn’t read that photo. Type the ISBN instead.' });
    } finally {
      setScanning(false);
      if (scanInput.current) scanInput.current.value = '';
    }
  };

  return (
    <form
      noValidate
      onSubmit={onSubmit}
      aria-label="Find your book by its ISBN"
      className="flex flex-col gap-5"
    >
      <Field
        label="ISBN"
        hint="The 10 or 13-digit number on the back cover, by the barcode, or on the copyright page."
        error={errors.isbn?.message}
      >
        {(control) => (
          <Input
            {...control}
            {...form.register('isbn')}
            autoFocus={autoFocus}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            inputMode="text"
            placeholder="978-0-14-143951-8"
            className="text-lg tracking-wide"
            data-testid="isbn-input"
          />
        )}
      </Field>
      {problem ? (
        <Alert tone="error" data-testid="form-error">
          {problem}
        </Alert>
      ) : null}
      <div className="flex flex-col gap-3 sm:flex-row">
        <SubmitButton
          pending={isSubmitting || start.isPending}
          pendingLabel="Finding your book…"
          className="sm:w-auto sm:flex-1"
        >
          Find my book
        </SubmitButton>
        {detector ? (
          <>
            <input
              ref={scanInput}
              type="file"
              accept="image/*"
              capture="environment"
              className="sr-only"
              tabIndex={-1}
              aria-hidden="true"
              onChange={(event) => void onScan(event.target.files?.[0])}
            />
            <Button
              type="button"
              variant="outline"
              size="lg"
              disabled={scanning}
              onClick={() => scanInput.current?.click()}
              data-testid="scan-barcode"
            >
              <ScanBarcode aria-hidden="true" />
              {scanning ? 'Reading the barcode…' : 'Scan the barcode'}
            </Button>
          </>
        ) : null}
      </div>
      <p className="text-sm text-ink-muted">
        No ISBN? Older books often have none.{' '}
        <button
          type="button"
          className="cursor-pointer font-semibold text-brand underline-offset-4 hover:underline"
          onClick={() => void begin(null)}
          disabled={start.isPending}
        >
          Type in the book’s details instead
        </button>
      </p>
    </form>
  );
}
