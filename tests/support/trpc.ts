/**
 * Browser tests' calls to typed procedures over HTTP as the signed-in context (its cookies), for
 * the steps a test sets up rather than clicks: the answer's data, or an error naming the
 * procedure, its status and body.
 */
import { CLIENT_HEADER } from '@reshelf/contracts';
import type { BrowserContext } from 'playwright-core';

const WEB = { [CLIENT_HEADER]: 'web' };

export async function trpcQuery<T>(context: BrowserContext, procedure: string, input?: unknown): Promise<T> {
  const search = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  const response = await context.request.get(`/trpc/${procedure}${search}`);
  if (!response.ok()) throw new Error(`${procedure}: ${response.status()} ${await response.text()}`);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

export async function trpcMutate<T>(context: BrowserContext, procedure: string, input: unknown): Promise<T> {
  const response = await context.request.post(`/trpc/${procedure}`, { headers: WEB, data: input });
  if (!response.ok()) throw new Error(`${procedure}: ${response.status()} ${await response.text()}`);
  return ((await response.json()) as { result: { data: T } }).result.data;
}
