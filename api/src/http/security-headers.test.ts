import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { contentSecurityPolicy, inlineScriptHashes } from './security-headers.ts';

describe('inlineScriptHashes', () => {
  it('hashes inline scripts only, not external ones or data blocks', () => {
    const html =
      '<script type="module" src="/a.js"></script><script>alert(1)</script><script type="application/ld+json">{}</script><script type="module">import "/b.js";</script>';
    expect(inlineScriptHashes(html)).toEqual([
      "'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='",
      expect.stringMatching(/^'sha256-[A-Za-z0-9+/]+=*'$/),
    ]);
    expect(inlineScriptHashes('<script src="/x.js"></script>')).toEqual([]);
  });
});

describe('contentSecurityPolicy', () => {
  it('lets pages talk to the Supabase project in hosted mode', () => {
    const hosted = loadConfig({
      BACKEND: 'supabase',
      DATABASE_URL: 'postgres://u:p@db.example:5432/postgres',
      SUPABASE_URL: 'https://abc.supabase.co',
      SUPABASE_ANON_KEY: 'anon-key-0123456789abcdef',
      SUPABASE_SERVICE_ROLE_KEY: 'service-key-0123456789abcdef',
      APP_SECRET: 'x'.repeat(40),
    });
    expect(contentSecurityPolicy(hosted)).toContain("connect-src 'self' https://abc.supabase.co;");
    expect(contentSecurityPolicy(loadConfig({}))).toContain("connect-src 'self';");
  });

  it('lets forms end at this site or at the Capacitor app (the test payment page returns there)', () => {
    expect(contentSecurityPolicy(loadConfig({}))).toContain(
      "form-action 'self' capacitor://localhost https://localhost;",
    );
  });
});
