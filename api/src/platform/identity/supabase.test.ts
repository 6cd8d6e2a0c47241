/**
 * The hosted identity adapter at its HTTP boundary: the exact requests it sends to
 * Supabase Auth, and how each failure kind is mapped (failed to send, relay/5xx, 401, 4xx).
 */
import { describe, expect, it } from 'vitest';
import { toAppError } from '../../account/auth/auth.service.ts';
import type { Database } from '../../db/index.ts';
import type { IdentityError } from './port.ts';
import { createSupabaseIdentity } from './supabase.ts';

const URL_BASE = 'https://proj.supabase.co';
const ANON = 'anon-key-0123456789abcdef';
const SERVICE = 'service-role-key-0123456789';
const links = {
  confirmUrl: 'https://reshelf.example/auth/confirm',
  resetUrl: 'https://reshelf.example/reset-password',
};

interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

function jwt(payload: Record<string, unknown>): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(payload)}.signature`;
}

const USER = {
  id: '8f7c3c52-2f5e-4b0b-9f63-2f1f6c8e7a10',
  aud: 'authenticated',
  role: 'authenticated',
  email: 'jo@example.com',
  email_confirmed_at: '2026-11-01T10:00:00Z',
  created_at: '2026-10-01T10:00:00Z',
  app_metadata: {},
  user_metadata: {},
};
const ACCESS = jwt({ sub: USER.id, session_id: 'sess-1', exp: 4_102_444_800 });
const SESSION = {
  access_token: ACCESS,
  refresh_token: 'refresh-token-value',
  token_type: 'bearer',
  expires_in: 3600,
  expires_at: 4_102_444_800,
  user: USER,
};

type Reply = { status: number; body?: unknown } | Error;

function fakeSupabase(replies: Reply[]) {
  const sent: Sent[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, key) => {
      headers[key] = value;
    });
    sent.push({
      method: init?.method ?? 'GET',
      url: String(input),
      headers,
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    });
    const reply = replies.shift() ?? { status: 200, body: {} };
    if (reply instanceof Error) throw reply;
    const noBody = reply.status === 204;
    return new Response(noBody ? null : JSON.stringify(reply.body ?? {}), {
      status: reply.status,
      headers: { 'content-type': 'application/json', 'x-supabase-api-version': '2024-01-01' },
    });
  };
  const identity = createSupabaseIdentity({
    url: URL_BASE,
    anonKey: ANON,
    serviceRoleKey: SERVICE,
    db: {} as Database,
    fetch: fetch as typeof globalThis.fetch,
  });
  return { identity, sent };
}

describe('Supabase identity adapter: requests', () => {
  it('signs in with the password grant and the anon key', async () => {
    const { identity, sent } = fakeSupabase([{ status: 200, body: SESSION }]);
    const session = await identity.signIn(' Jo@Example.com ', 'a-long-password', {});
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      method: 'POST',
      url: `${URL_BASE}/auth/v1/token?grant_type=password`,
      body: { email: 'jo@example.com', password: 'a-long-password' },
    });
    expect(sent[0]!.headers.apikey).toBe(ANON);
    expect(session).toMatchObject({
      accessToken: ACCESS,
      refreshToken: 'refresh-token-value',
      sessionId: 'sess-1',
      user: { id: USER.id, email: 'jo@example.com', emailConfirmed: true },
    });
  });

  it('signs up with the display name and the confirmation redirect', async () => {
    const { identity, sent } = fakeSupabase([{ status: 200, body: { ...USER, email_confirmed_at: null } }]);
    await identity.signUp(
      { email: 'jo@example.com', password: 'a-long-password', displayName: 'Jo March' },
      links,
    );
    const url = new URL(sent[0]!.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${URL_BASE}/auth/v1/signup`);
    // Always with a query, as the Confirm signup template appends `&token=…` (docs/hosted-supabase.md).
    expect(url.searchParams.get('redirect_to')).toBe('https://reshelf.example/auth/confirm?next=%2F');
    expect(sent[0]!.body).toMatchObject({
      email: 'jo@example.com',
      password: 'a-long-password',
      data: { display_name: 'Jo March' },
    });
  });

  it('keeps where sign-up was heading (`next`) on the confirmation redirect', async () => {
    const { identity, sent } = fakeSupabase([{ status: 200, body: { ...USER, email_confirmed_at: null } }]);
    const next = '/checkout?listing=middlemarch-1a2b';
    await identity.signUp(
      { email: 'jo@example.com', password: 'a-long-password', displayName: 'Jo March' },
      { ...links, confirmUrl: `${links.confirmUrl}?next=${encodeURIComponent(next)}` },
    );
    const redirect = new URL(new URL(sent[0]!.url).searchParams.get('redirect_to')!);
    expect(redirect.searchParams.get('next')).toBe(next);
    // What the template makes of it: the page gets both the token and next.
    const emailed = new URL(`${redirect.toString()}&token=hash123`);
    expect([emailed.searchParams.get('token'), emailed.searchParams.get('next')]).toEqual(['hash123', next]);
  });

  it('closes an account: ends its sessions, then a placeholder address, a random password and a ban (never a delete)', async () => {
    const { identity, sent } = fakeSupabase([{ status: 204 }, { status: 200, body: USER }]);
    await identity.closeUser(USER.id, {
      claims: {
        userId: USER.id,
        email: USER.email,
        sessionId: 'sess-1',
        expiresAt: 4_102_444_800,
        accessToken: ACCESS,
      },
    });
    expect(sent).toHaveLength(2);
    expect(sent[0]).toMatchObject({ method: 'POST', url: `${URL_BASE}/auth/v1/logout?scope=global` });
    expect(sent[0]!.headers.authorization).toBe(`Bearer ${ACCESS}`);
    expect(sent[1]).toMatchObject({
      method: 'PUT',
      url: `${URL_BASE}/auth/v1/admin/users/${USER.id}`,
      body: {
        email: `closed+${USER.id}@invalid`,
        email_confirm: true,
        ban_duration: '876000h',
        user_metadata: { display_name: 'Former member' },
      },
    });
    expect((sent[1]!.body as { password: string }).password).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(sent[1]!.headers.apikey).toBe(SERVICE);
    expect(sent.some((request) => request.method === 'DELETE')).toBe(false);
  });

  it('checks an access token with the service key, and caches the answer', async () => {
    const { identity, sent } = fakeSupabase([{ status: 200, body: USER }]);
    const claims = await identity.verify(ACCESS);
    expect(claims).toMatchObject({ userId: USER.id, sessionId: 'sess-1', accessToken: ACCESS });
    expect(sent[0]).toMatchObject({ method: 'GET', url: `${URL_BASE}/auth/v1/user` });
    expect(sent[0]!.headers.authorization).toBe(`Bearer ${ACCESS}`);
    expect(sent[0]!.headers.apikey).toBe(SERVICE);
    await identity.verify(ACCESS);
    expect(sent).toHaveLength(1);
  });

  it('signs out everywhere through the admin logout with the user token', async () => {
    const { identity, sent } = fakeSupabase([{ status: 204 }]);
    await identity.signOut(
      { userId: USER.id, email: USER.email, sessionId: 's', expiresAt: 0, accessToken: ACCESS },
      'global',
    );
    expect(sent[0]).toMatchObject({ method: 'POST', url: `${URL_BASE}/auth/v1/logout?scope=global` });
    expect(sent[0]!.headers.authorization).toBe(`Bearer ${ACCESS}`);
  });

  it('asks for a recovery email with the reset redirect', async () => {
    const { identity, sent } = fakeSupabase([{ status: 200, body: {} }]);
    await identity.requestPasswordReset('jo@example.com', links);
    const url = new URL(sent[0]!.url);
    expect(url.pathname).toBe('/auth/v1/recover');
    expect(url.searchParams.get('redirect_to')).toBe(links.resetUrl);
    expect(sent[0]!.body).toMatchObject({ email: 'jo@example.com' });
  });

  it('makes a set-password link with the admin API, without Supabase sending an email', async () => {
    const { identity, sent } = fakeSupabase([
      {
        status: 200,
        body: {
          ...USER,
          action_link: `${URL_BASE}/auth/v1/verify?token=hash-abc&type=recovery`,
          email_otp: '123456',
          hashed_token: 'hash-abc',
          redirect_to: links.resetUrl,
          verification_type: 'recovery',
        },
      },
    ]);
    const link = await identity.passwordLink(' Jo@Example.com ', links);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      method: 'POST',
      url: `${URL_BASE}/auth/v1/admin/generate_link?redirect_to=${encodeURIComponent(links.resetUrl)}`,
      body: { type: 'recovery', email: 'jo@example.com' },
    });
    expect(sent[0]!.headers.apikey).toBe(SERVICE);
    // As the Reset password template writes it: {{ .RedirectTo }}?token={{ .TokenHash }}.
    expect(link).toBe(`${links.resetUrl}?token=hash-abc`);
  });

  it('confirms an emailed link by its token hash', async () => {
    const { identity, sent } = fakeSupabase([{ status: 200, body: SESSION }]);
    const session = await identity.confirmEmail('hashed-token-from-the-email', {});
    expect(sent[0]).toMatchObject({
      url: `${URL_BASE}/auth/v1/verify`,
      body: { token_hash: 'hashed-token-from-the-email', type: 'email' },
    });
    expect(session.user.id).toBe(USER.id);
  });
});

describe('Supabase identity adapter: failures', () => {
  async function failure(reply: Reply): Promise<IdentityError> {
    const { identity } = fakeSupabase([reply]);
    try {
      await identity.signIn('jo@example.com', 'a-long-password', {});
    } catch (error) {
      return error as IdentityError;
    }
    throw new Error('expected a failure');
  }

  it('maps a request that could not be sent to "unavailable" (503)', async () => {
    const error = await failure(new TypeError('fetch failed'));
    expect(error.code).toBe('unavailable');
    expect(toAppError(error)).toMatchObject({ code: 'UNAVAILABLE' });
  });

  it('maps a relay or server error to "unavailable" too: Auth failing is an outage (503)', async () => {
    const error = await failure({ status: 502, body: { message: 'relay error' } });
    expect(error).toMatchObject({ code: 'unavailable', status: 502, upstreamUnavailable: true });
    expect(toAppError(error)).toMatchObject({ code: 'UNAVAILABLE' });
  });

  it('maps a 401 to UNAUTHORIZED', async () => {
    const error = await failure({ status: 401, body: { code: 'no_authorization', msg: 'no' } });
    expect(toAppError(error)).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('maps known 4xx codes to their meaning', async () => {
    expect(
      await failure({ status: 400, body: { code: 'invalid_credentials', msg: 'Invalid login credentials' } }),
    ).toMatchObject({
      code: 'invalid_credentials',
      message: 'Incorrect email or password.',
    });
    expect(
      await failure({ status: 400, body: { code: 'email_not_confirmed', msg: 'Email not confirmed' } }),
    ).toMatchObject({
      code: 'email_not_confirmed',
    });
  });

  it('treats a refused token as signed out, but reports an outage as one', async () => {
    const refused = fakeSupabase([{ status: 403, body: { code: 'bad_jwt', msg: 'invalid JWT' } }]);
    expect(await refused.identity.verify(ACCESS)).toBeNull();
    const down = fakeSupabase([new TypeError('fetch failed')]);
    await expect(down.identity.verify(ACCESS)).rejects.toMatchObject({ code: 'unavailable' });
  });
});
