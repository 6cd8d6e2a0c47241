import {
  CLIENT_HEADER,
  PHOTO_TYPES,
  type PhotoUploadResult,
  SELLING_LIMITS,
  SELLING_MESSAGES,
} from '@reshelf/contracts';
import { apiUrl } from './api.ts';
import { CONNECTION_PROBLEM } from './api-errors.ts';
import { CLIENT_KIND } from './trpc.ts';

/** A refused or failed upload, with the message to show and the HTTP status (0: never reached us). */
export class UploadError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'UploadError';
  }
}

/**
 * What is wrong with a chosen file before sending it, so the person hears at once; the API
 * checks again (and reads the type from the bytes, which a browser cannot promise).
 */
export function checkPhotoFile(file: { type: string; size: number }): string | null {
  if (file.type && !(PHOTO_TYPES as readonly string[]).includes(file.type))
    return SELLING_MESSAGES.photoNotImage;
  if (file.size > SELLING_LIMITS.maxPhotoBytes) return SELLING_MESSAGES.photoTooBig;
  if (file.size === 0) return SELLING_MESSAGES.photoUnreadable;
  return null;
}

/**
 * Sends one file as multipart/form-data (field `file`, or the name given) to one of the API's
 * upload routes, with the session cookie and the client header, reporting progress from 0 to
 * 1. Resolves with the JSON answer of a 2xx; rejects with the server's message otherwise.
 */
export function uploadFile<T>(
  path: string,
  file: Blob & { name?: string },
  options: { field?: string; fallbackMessage: string; onProgress?: (fraction: number) => void },
): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiUrl(path));
    xhr.withCredentials = true;
    xhr.setRequestHeader(CLIENT_HEADER, CLIENT_KIND);
    xhr.responseType = 'json';
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      const body = xhr.response as { message?: string } | null;
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as T);
      else reject(new UploadError(body?.message ?? options.fallbackMessage, xhr.status));
    };
    xhr.onerror = () => reject(new UploadError(CONNECTION_PROBLEM, 0));
    const form = new FormData();
    form.append(options.field ?? 'file', file, file.name ?? options.field ?? 'upload');
    xhr.send(form);
  });
}

/** Sends one photo for a listing (POST /api/uploads/listing-photo). */
export function uploadListingPhoto(
  listingId: string,
  file: Blob & { name?: string },
  onProgress?: (fraction: number) => void,
): Promise<PhotoUploadResult> {
  return uploadFile<PhotoUploadResult>(
    `/api/uploads/listing-photo?listingId=${encodeURIComponent(listingId)}`,
    file,
    { field: 'photo', fallbackMessage: 'The photo could not be uploaded. Please try again.', onProgress },
  );
}
