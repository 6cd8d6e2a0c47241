/**
 * Browser sessions live in httpOnly cookies set by the BFF: tokens never reach page
 * scripts. Outside development the names carry the `__Host-` prefix and `Secure`.
 */
// The cookie plugin's type augmentation (request.cookies, reply.setCookie) must be visible
// wherever this file is type-checked, including through the web client's router import.
import type {} from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../../config.ts';
import type { Session } from './port.ts';

export const SESSION_TTL_SECONDS = 30 * 24 * 60 * 60;

export function cookieNames(config: AppConfig) {
  const prefix = secureCookies(config) ? '__Host-' : '';
  return { access: `${prefix}reshelf_at`, refresh: `${prefix}reshelf_rt` };
}

export function secureCookies(config: AppConfig): boolean {
  return config.env === 'production';
}

export function readSessionCookies(request: FastifyRequest, config: AppConfig) {
  const names = cookieNames(config);
  return { access: request.cookies[names.access], refresh: request.cookies[names.refresh] };
}

export function setSessionCookies(reply: FastifyReply, config: AppConfig, session: Session): void {
  const names = cookieNames(config);
  const base = { httpOnly: true, secure: secureCookies(config), sameSite: 'lax' as const, path: '/' };
  const accessSeconds = Math.max(1, session.expiresAt - Math.floor(Date.now() / 1000));
  reply.setCookie(names.access, session.accessToken, { ...base, maxAge: accessSeconds });
  reply.setCookie(names.refresh, session.refreshToken, { ...base, maxAge: SESSION_TTL_SECONDS });
}

export function clearSessionCookies(reply: FastifyReply, config: AppConfig): void {
  const names = cookieNames(config);
  const base = { httpOnly: true, secure: secureCookies(config), sameSite: 'lax' as const, path: '/' };
  reply.clearCookie(names.access, base);
  reply.clearCookie(names.refresh, base);
}
