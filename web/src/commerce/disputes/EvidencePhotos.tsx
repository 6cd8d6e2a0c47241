/**
 * Photos for a report or an answer: taken as the order's conversation takes them (uploaded to
 * its thread: the server accepts only that thread's photos), at most PROTECTION_RULES.maxPhotos.
 */
import { MESSAGE_PHOTO_PATH, PROTECTION_RULES } from '@reshelf/contracts';
import { ImagePlus, X } from 'lucide-react';
import { useRef, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { mediaUrl, thumbUrl } from '../../lib/media.ts';
import { trpc } from '../../lib/trpc.ts';
import { checkPhotoFile, UploadError, uploadFile } from '../../lib/upload.ts';

export function useEvidencePhotos(orderId: string) {
  const [photos, setPhotos] = useState<string[]>([]);
  const [uploading, setUploading] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const start = trpc.community.messages.member.startForOrder.useMutation();
  async function add(files: File[]) {
    if (files.length === 0) return;
    setError(null);
    const { threadId } = await start.mutateAsync({ orderId });
    for (const file of files) {
      const problem = checkPhotoFile(file);
      if (problem) {
        setError(problem);
        continue;
      }
      setUploading((n) => n + 1);
      try {
        const saved = await uploadFile<{ url: string }>(`${MESSAGE_PHOTO_PATH}?threadId=${threadId}`, file, {
          fallbackMessage: 'We couldn’t read that photo. Try a JPEG or PNG.',
        });
        setPhotos((current) =>
          current.length >= PROTECTION_RULES.maxPhotos ? current : [...current, saved.url],
        );
      } catch (failure) {
        setError(failure instanceof UploadError ? failure.message : 'We couldn’t read that photo.');
      } finally {
        setUploading((n) => n - 1);
      }
    }
  }
  return {
    photos,
    uploading: uploading > 0,
    error,
    add,
    remove: (url: string) => setPhotos((current) => current.filter((photo) => photo !== url)),
    reset: () => setPhotos([]),
  };
}

export function EvidencePicker({ state }: { state: ReturnType<typeof useEvidencePhotos> }) {
  const input = useRef<HTMLInputElement>(null);
  const full = state.photos.length >= PROTECTION_RULES.maxPhotos;
  return (
    <div className="flex flex-col gap-2" data-testid="evidence-picker">
      <p className="text-sm font-semibold">
        Photos <span className="font-normal text-ink-muted">(up to {PROTECTION_RULES.maxPhotos})</span>
      </p>
      <PhotoGrid photos={state.photos} onRemove={state.remove} />
      <input
        ref={input}
        type="file"
        accept="image/jpeg,image/png,image/webp,image/heic"
        multiple
        className="sr-only"
        aria-label="Add photos"
        data-testid="evidence-file"
        onChange={(event) => {
          // Read the files before the input is cleared for the next choice.
          const files = Array.from(event.target.files ?? []);
          event.target.value = '';
          void state.add(files);
        }}
      />
      <div>
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={full || state.uploading}
          onClick={() => input.current?.click()}
        >
          <ImagePlus aria-hidden="true" />
          {state.uploading ? 'Uploading…' : 'Add photos'}
        </Button>
      </div>
      {state.error ? (
        <p className="text-sm text-destructive" role="alert">
          {state.error}
        </p>
      ) : null}
    </div>
  );
}

export function PhotoGrid({ photos, onRemove }: { photos: string[]; onRemove?: (url: string) => void }) {
  if (photos.length === 0) return null;
  return (
    <ul className="grid grid-cols-3 gap-2 sm:grid-cols-6" data-testid="evidence-photos">
      {photos.map((url, index) => (
        <li key={url} className="relative">
          <a href={mediaUrl(url)} target="_blank" rel="noreferrer">
            <img
              src={thumbUrl(url)}
              alt={`Evidence ${index + 1} of ${photos.length}`}
              className="aspect-square w-full rounded-lg border border-line object-cover"
            />
          </a>
          {onRemove ? (
            <button
              type="button"
              onClick={() => onRemove(url)}
              aria-label={`Remove photo ${index + 1}`}
              className="absolute top-1 right-1 rounded-full bg-paper p-1 shadow-card"
            >
              <X aria-hidden="true" className="size-3" />
            </button>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
