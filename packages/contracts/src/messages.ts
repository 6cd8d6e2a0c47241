/**
 * Messages between members (decision 0035): a thread per listing and buyer, text and
 * photos, read receipts, blocks and reports. Shared by the BFF (validation, detection) and the
 * web (the same limits, the same warning).
 */
import { z } from 'zod';

export const MESSAGE_LIMITS = {
  /** Characters of text a message may hold. */
  maxText: 2000,
  /** Photos a message may carry. */
  maxPhotos: 4,
  /** Threads one page of the inbox lists. */
  pageSize: 50,
  /** Characters of an inbox search. */
  maxSearch: 100,
} as const;

/**
 * A photo uploaded to a conversation (for a message, or for a report's or contest's evidence)
 * and not sent within this many hours is deleted (files and record) by the job
 * message_photos.sweep; sending it afterwards is refused with MESSAGE_TEXTS.photoGone.
 */
export const UNSENT_PHOTO_HOURS = 24;

/** POST a photo for a message here (multipart, one file, `?threadId=`); send its `url` with the message. */
export const MESSAGE_PHOTO_PATH = '/api/uploads/message-photo';

export const MESSAGE_TEXTS = {
  empty: 'Write a message or add a photo',
  tooLong: `Keep a message to ${MESSAGE_LIMITS.maxText.toLocaleString('en-GB')} characters`,
  tooManyPhotos: `Add at most ${MESSAGE_LIMITS.maxPhotos} photos to a message`,
  blocked:
    'You can’t message this member: one of you has blocked the other. The conversation stays here to read.',
  recipientSuspended: 'This member can’t receive messages at the moment.',
  ownListing: 'This is your own listing: buyers will message you about it.',
  notFound: 'We could not find that conversation.',
  photoGone: 'That photo is no longer there: add it again.',
  listingGone: 'This listing is no longer on Reshelf.',
  offPlatform:
    'A message here suggests paying another way (a bank transfer, PayPal friends and family, or contact details to move the chat elsewhere). Paying outside Reshelf means no buyer protection and no refund if the book never arrives.',
} as const;

/**
 * A conversation photo's address without its signature: the API hands out private photos at a
 * short-lived signed address (`…/1600.webp?expires=…&sig=…`) and keeps the plain one; a page
 * sends back what it was given.
 */
export function withoutSignature(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** A photo of a conversation (a message's, or a dispute's evidence), as sent back by a page. */
export const conversationPhotoSchema = z.string().min(1).max(1000).overwrite(withoutSignature);

/** What a member sends: text, photos (URLs from the message photo upload), or both. */
export const messageBodySchema = z
  .object({
    text: z.string().max(MESSAGE_LIMITS.maxText, MESSAGE_TEXTS.tooLong).default(''),
    photos: z
      .array(conversationPhotoSchema)
      .max(MESSAGE_LIMITS.maxPhotos, MESSAGE_TEXTS.tooManyPhotos)
      .default([]),
  })
  .refine((value) => value.text.trim().length > 0 || value.photos.length > 0, {
    message: MESSAGE_TEXTS.empty,
    path: ['text'],
  });

const PATTERNS: RegExp[] = [
  /\bbank\s*transfer\b/i,
  /\b(?:bacs|faster\s+payments?)\b/i,
  /\bsort\s*code\b/i,
  /\b\d{2}-\d{2}-\d{2}\b/, // a sort code written out
  /\baccount\s*(?:number|no\.?)\b/i,
  /\bpay\s*pal\b[^.!?\n]{0,40}\b(?:friends?\s*(?:and|&|n)\s*family|f\s*&\s*f|f\s*and\s*f|gift)\b/i,
  /\b(?:friends?\s*(?:and|&)\s*family|f&f)\b[^.!?\n]{0,40}\bpay\s*pal\b/i,
  /\b(?:pay|send)\s+(?:me\s+)?(?:directly|outside|off)\b/i,
  /\b(?:whats\s*app|telegram|signal\s+me)\b/i,
  /[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,}/i, // an email address
  // A UK mobile or landline: 07/01/02/03 and nine more digits (or +44 and the same without the
  // 0), spaces or hyphens allowed. An ISBN-10 has one digit fewer, so a book's number is not one.
  /(?:\+44\s?(?:\(0\)\s?)?|(?<![\d-])0)[1-37](?:[\s-]?\d){9}(?![\d-])/,
];

/**
 * Whether a message suggests paying, or carrying on, outside Reshelf: a bank transfer or sort
 * code, PayPal friends and family, a phone number or an email address. The thread then shows a
 * warning to both members (the message is still delivered).
 */
export function suggestsOffPlatform(text: string): boolean {
  return PATTERNS.some((pattern) => pattern.test(text));
}
