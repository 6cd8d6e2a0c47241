import { PHOTO_TYPES, SELLING_LIMITS, SELLING_MESSAGES, type SellerListing } from '@reshelf/contracts';
import { ImagePlus, Loader2, Star, Trash2 } from 'lucide-react';
import { type ReactNode, useId, useRef, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { notify } from '../../components/ui/notify.ts';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { thumbUrl } from '../../lib/media.ts';
import { trpc } from '../../lib/trpc.ts';
import { checkPhotoFile, UploadError, uploadListingPhoto } from '../../lib/upload.ts';
import { cn } from '../../lib/utils.ts';
import { StepActions } from './WizardFrame.tsx';

interface Pending {
  key: string;
  name: string;
  progress: number;
}

/**
 * The copy's photos: choose or take several at once; each is checked here (type and size),
 * sent, checked again and resized by the API, and shown as soon as it is stored. The first
 * photo is the one on cards; any other can be made first, and any removed.
 */
export function PhotosForm({
  listing,
  onDone,
  submitLabel,
  back,
}: {
  listing: SellerListing;
  onDone: (listing: SellerListing) => void;
  submitLabel: string;
  back?: ReactNode;
}) {
  const utils = trpc.useUtils();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [pending, setPending] = useState<Pending[]>([]);
  const [errors, setErrors] = useState<{ name: string; message: string }[]>([]);
  const [missing, setMissing] = useState(false);
  const photos = listing.photos;
  const room = SELLING_LIMITS.maxPhotos - photos.length - pending.length;
  const locked = listing.lock !== null;

  const setListing = (next: SellerListing) => {
    utils.selling.listings.get.setData({ listingId: next.id }, next);
    void utils.selling.listings.mine.invalidate();
  };
  const remove = trpc.selling.listings.removePhoto.useMutation({
    onSuccess: setListing,
    onError: (error) => notify.error(apiErrorMessage(error)),
  });
  const reorder = trpc.selling.listings.reorderPhotos.useMutation({
    onSuccess: setListing,
    onError: (error) => notify.error(apiErrorMessage(error)),
  });

  const addFiles = async (files: File[]) => {
    setMissing(false);
    const problems: { name: string; message: string }[] = [];
    const accepted: File[] = [];
    for (const file of files) {
      const problem = checkPhotoFile(file);
      if (problem) problems.push({ name: file.name, message: problem });
      else if (accepted.length >= room)
        problems.push({ name: file.name, message: SELLING_MESSAGES.tooManyPhotos });
      else accepted.push(file);
    }
    setErrors(problems);
    for (const file of accepted) {
      const key = `${file.name}-${Math.random().toString(36).slice(2)}`;
      setPending((list) => [...list, { key, name: file.name, progress: 0 }]);
      try {
        const result = await uploadListingPhoto(listing.id, file, (progress) =>
          setPending((list) => list.map((item) => (item.key === key ? { ...item, progress } : item))),
        );
        setListing(result.listing);
      } catch (error) {
        const message = error instanceof UploadError ? error.message : SELLING_MESSAGES.photoUnreadable;
        setErrors((list) => [...list, { name: file.name, message }]);
      } finally {
        setPending((list) => list.filter((item) => item.key !== key));
      }
    }
  };

  const onContinue = () => {
    if (photos.length === 0) {
      setMissing(true);
      return;
    }
    onDone(listing);
  };

  return (
    <div data-testid="photos-form">
      <label
        htmlFor={inputId}
        className={cn(
          'flex cursor-pointer flex-col items-center gap-2 rounded-xl border-2 border-dashed bg-paper px-6 py-8 text-center transition-colors hover:border-brand/60 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand',
          missing ? 'border-destructive' : 'border-line',
          (room <= 0 || locked) && 'pointer-events-none opacity-60',
        )}
        onDragOver={(event) => event.preventDefault()}
        onDrop={(event) => {
          event.preventDefault();
          void addFiles([...event.dataTransfer.files]);
        }}
      >
        <ImagePlus aria-hidden="true" className="size-8 text-brand" />
        <span className="font-semibold text-ink">Add photos of your copy</span>
        <span className="text-sm text-ink-muted">
          Take them now or choose from your photos: JPEG, PNG or WebP, up to 10 MB each,{' '}
          {SELLING_LIMITS.maxPhotos} at most. The front cover first, then anything worth showing.
        </span>
        <input
          ref={input}
          id={inputId}
          type="file"
          accept={PHOTO_TYPES.join(',')}
          multiple
          disabled={room <= 0 || locked}
          className="sr-only"
          data-testid="photo-input"
          aria-describedby={missing ? `${inputId}-missing` : undefined}
          onChange={(event) => {
            const files = [...(event.target.files ?? [])];
            event.target.value = '';
            void addFiles(files);
          }}
        />
      </label>
      {missing ? (
        <p
          id={`${inputId}-missing`}
          role="alert"
          className="mt-2 text-sm font-medium text-destructive"
          data-testid="field-error"
        >
          {SELLING_MESSAGES.noPhoto}
        </p>
      ) : null}
      {errors.length ? (
        <ul
          role="alert"
          className="mt-3 flex flex-col gap-1 text-sm font-medium text-destructive"
          data-testid="photo-errors"
        >
          {errors.map((error, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the same file may fail twice.
            <li key={index}>
              <span className="font-semibold">{error.name}:</span> {error.message}
            </li>
          ))}
        </ul>
      ) : null}
      {photos.length || pending.length ? (
        <ul
          className="mt-5 grid grid-cols-2 gap-3 sm:grid-cols-4"
          data-testid="photo-list"
          aria-label="Your photos"
        >
          {photos.map((url, index) => (
            <li key={url} className="relative overflow-hidden rounded-lg border border-line bg-paper-deep">
              <img
                src={thumbUrl(url)}
                alt={index === 0 ? 'Your copy, main view' : `Your copy, view ${index + 1}`}
                className="aspect-square w-full object-cover"
                width={200}
                height={200}
              />
              {index === 0 ? (
                <span className="absolute top-2 left-2 rounded-full bg-ink/85 px-2 py-0.5 text-xs font-semibold text-paper">
                  Main photo
                </span>
              ) : null}
              <div className="flex justify-between gap-1 border-t border-line bg-paper p-1">
                {index > 0 ? (
                  <Button
                    variant="ghost"
                    size="sm"
                    className="px-2 text-xs"
                    disabled={reorder.isPending || locked}
                    onClick={() =>
                      reorder.mutate({
                        listingId: listing.id,
                        photos: [url, ...photos.filter((photo) => photo !== url)],
                      })
                    }
                  >
                    <Star aria-hidden="true" />
                    Make main
                  </Button>
                ) : (
                  <span />
                )}
                <Button
                  variant="ghost"
                  size="sm"
                  className="px-2 text-xs text-destructive"
                  aria-label={`Remove photo ${index + 1}`}
                  disabled={remove.isPending || locked}
                  onClick={() => remove.mutate({ listingId: listing.id, url })}
                >
                  <Trash2 aria-hidden="true" />
                </Button>
              </div>
            </li>
          ))}
          {pending.map((item) => (
            <li
              key={item.key}
              role="status"
              aria-label={`Uploading ${item.name}`}
              className="flex aspect-square flex-col items-center justify-center gap-2 rounded-lg border border-dashed border-line bg-paper p-3 text-center text-xs text-ink-muted"
            >
              <Loader2 aria-hidden="true" className="size-5 text-brand motion-safe:animate-spin" />
              <span className="line-clamp-2 break-all">{item.name}</span>
              <span className="h-1.5 w-full overflow-hidden rounded-full bg-paper-edge">
                <span
                  className="block h-full bg-brand"
                  style={{ width: `${Math.round(item.progress * 100)}%` }}
                />
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      <StepActions back={back}>
        <Button
          variant="brand"
          size="lg"
          onClick={onContinue}
          disabled={pending.length > 0}
          aria-busy={pending.length > 0 || undefined}
          data-testid="step-submit"
        >
          {pending.length ? 'Uploading…' : submitLabel}
        </Button>
      </StepActions>
    </div>
  );
}
