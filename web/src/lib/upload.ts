import {
  CLIENT_HEADER,
  PHOTO_TYPES,
  type PhotoUploadResult,
  SELLING_LIMITS,
  SELLING_MESSAGES,
} from '@reshelf/contracts';
import { apiUrl } from './api.ts';
import { CONNECTION_PROBLEM } from './api-errors.ts';
import { appSession, clientKind } from './app-session.ts';

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
 * upload routes, with the session (the cookie in a browser, the bearer token in the app) and
 * the client header, reporting progress from 0 to 1. Resolves with the JSON answer of a 2xx;
 * rejects with the server's message otherwise. In the app, a token the API refuses is renewed
 * and the file sent once more (nothing was stored the first time: the upload was refused whole).
 */
export async function uploadFile<T>(
  path: string,
  file: Blob & { name?: string },
  options: { field?: string; fallbackMessage: string; onProgress?: (fraction: number) => void },
): Promise<T> {
  const session = appSession();
  const token = session ? await session.accessToken() : null;
  const first = await send(path, file, options, token);
  if (session && token && first.refusedToken) {
    return finish<T>(await send(path, file, options, await session.renew(token)), options);
  }
  return finish<T>(first, options);
}

interface Sent {
  status: number;
  body: { message?: string } | null;
  refusedToken: boolean;
}

function finish<T>(sent: Sent, options: { fallbackMessage: string }): T {
  if (sent.status >= 200 && sent.status < 300) return sent.body as T;
  if (sent.status === 0) throw new UploadError(CONNECTION_PROBLEM, 0);
  throw new UploadError(sent.body?.message ?? options.fallbackMessage, sent.status);
}

function send(
  path: string,
  file: Blob & { name?: string },
  options: { field?: string; onProgress?: (fraction: number) => void },
  token: string | null,
): Promise<Sent> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiUrl(path));
    // Cookies in a browser; the app sends its token and no cookies.
    xhr.withCredentials = !appSession();
    xhr.setRequestHeader(CLIENT_HEADER, clientKind());
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.responseType = 'json';
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () =>
      resolve({
        status: xhr.status,
        body: xhr.response as { message?: string } | null,
        refusedToken:
          xhr.status === 401 &&
          /\berror="invalid_token"/i.test(xhr.getResponseHeader('www-authenticate') ?? ''),
      });
    xhr.onerror = () => resolve({ status: 0, body: null, refusedToken: false });
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
