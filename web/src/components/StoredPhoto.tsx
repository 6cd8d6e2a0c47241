/**
 * A stored photo at the size it is shown (decision 0063): a `<picture>` with every size in AVIF,
 * then WebP (the browser takes the first format it can show, and the width its layout and
 * screen need from `sizes`), and explicit `width`/`height` (the 3:4 frame) so nothing moves as it
 * arrives. Any other picture (a cover hosted elsewhere, a photo's old thumbnail address) is a
 * plain `<img>` of the address given. A size that fails to load gives way to the photo's large
 * size, so a photo whose sizes are not made yet still shows.
 *
 * `priority`: "high" for the page's largest picture (eager, fetched first), "eager" for others
 * on the first screen, "lazy" (the default) for the rest.
 */

import {
  hasPhotoSizes,
  PHOTO_FORMAT_TYPES,
  PHOTO_FORMATS,
  PHOTO_FRAME,
  PHOTO_WIDTHS,
  photoSizeUrl,
} from '@reshelf/contracts';
import { useEffect, useRef, useState } from 'react';
import { mediaUrl, PHOTO_LAYOUT_SIZES, type PhotoLayout, photoSrcSet } from '../lib/media.ts';

export type PhotoPriority = 'high' | 'eager' | 'lazy';

/** The frame's shape in pixels for width/height: only the ratio matters to the browser. */
const FRAME = { width: PHOTO_FRAME.width * 200, height: PHOTO_FRAME.height * 200 } as const;

/** The size an `<img>` falls back to (a browser without srcset): the middle width's WebP. */
const FALLBACK_WIDTH = PHOTO_WIDTHS[1];

export function StoredPhoto({
  url,
  alt,
  layout,
  priority = 'lazy',
  className,
  decoding,
}: {
  /** The photo's address (its large size, as stored), or any other picture's. */
  url: string;
  alt: string;
  layout: PhotoLayout;
  priority?: PhotoPriority | undefined;
  className?: string | undefined;
  decoding?: 'sync' | 'async' | undefined;
}) {
  const common = {
    width: FRAME.width,
    height: FRAME.height,
    loading: priority === 'lazy' ? ('lazy' as const) : ('eager' as const),
    fetchPriority: priority === 'high' ? ('high' as const) : undefined,
    decoding: decoding ?? (priority === 'high' ? ('sync' as const) : ('async' as const)),
    className,
  };
  const image = useRef<HTMLImageElement>(null);
  // A size that cannot be loaded (a photo whose sizes are not made yet, on hosted storage where
  // no stand-in answers: decision 0063) gives way to the photo's large size. An error before
  // hydration is seen on mount: the image finished with no picture.
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const img = image.current;
    if (img?.complete && img.currentSrc !== '' && img.naturalWidth === 0) setFailed(true);
  }, []);
  if (!hasPhotoSizes(url) || failed) return <img src={mediaUrl(url)} alt={alt} {...common} />;
  const sizes = PHOTO_LAYOUT_SIZES[layout];
  // The last format is the <img>'s own (every browser shows WebP); the better ones are sources.
  const last = PHOTO_FORMATS[PHOTO_FORMATS.length - 1]!;
  return (
    // `contents`: the picture adds no box, so the img is laid out as the frame's child.
    <picture className="contents" data-testid="stored-photo">
      {PHOTO_FORMATS.filter((format) => format !== last).map((format) => (
        <source
          key={format}
          type={PHOTO_FORMAT_TYPES[format]}
          srcSet={photoSrcSet(url, format)}
          sizes={sizes}
        />
      ))}
      <img
        src={mediaUrl(photoSizeUrl(url, FALLBACK_WIDTH, last))}
        srcSet={photoSrcSet(url, last)}
        sizes={sizes}
        alt={alt}
        ref={image}
        onError={() => setFailed(true)}
        {...common}
      />
    </picture>
  );
}
