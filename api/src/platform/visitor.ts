import type { Context } from '../trpc.ts';

/**
 * A salted hash standing in for a visitor today: the same browser on the same network gives
 * the same key for a day, and nothing about them can be read back from it.
 */
export function visitorKey(ctx: Pick<Context, 'req' | 'secrets'>, scope = 'view'): string {
  const day = new Date().toISOString().slice(0, 10);
  const agent = ctx.req.headers['user-agent'] ?? '';
  return ctx.secrets.sign('visitor', `${scope}|${day}|${ctx.req.ip}|${agent}`).slice(0, 32);
}
