/**
 * Who may call an Edge Function (Deno, hosted mode). Two checks, in this order:
 *
 * 1. The caller's key (`apikey` header) must be one of the project's secret keys: a new-style
 *    `sb_secret_…` key from SUPABASE_SECRET_KEYS (a JSON object of name → key, provided to
 *    hosted functions by default) or the legacy `service_role` key, SUPABASE_SERVICE_ROLE_KEY
 *    (a JWT with role service_role, also provided by default while legacy keys are enabled).
 *    Only the Reshelf API holds one: browsers never do.
 * 2. The signed-in person's access token (`Authorization: Bearer`) must be one Supabase Auth
 *    issued: signed by one of the project's asymmetric signing keys (ES256 or RS256, checked
 *    against the project's JWKS at <SUPABASE_URL>/auth/v1/.well-known/jwks.json, fetched once
 *    and cached), or, for a project still on the legacy JWT secret, an HS256 token checked with
 *    JWT_LEGACY_SECRET when the operator has set it (the CLI refuses secret names starting with
 *    SUPABASE_, and hosted functions are not given the JWT secret). Issuer
 *    <SUPABASE_URL>/auth/v1 (JWT_ISSUER overrides it), audience `authenticated`, an expiry
 *    in the future and a subject are required.
 *
 * Decision 0031 records the sources for the default secrets and why these names.
 */
import {
  createRemoteJWKSet,
  decodeProtectedHeader,
  errors,
  type JWTPayload,
  type JWTVerifyGetKey,
  jwtVerify,
  type ProtectedHeaderParameters,
} from 'jose';

/** Reads one environment variable (Deno.env.get in a function; a map in tests). */
export type Env = (name: string) => string | undefined;

/** The algorithms of Supabase Auth's asymmetric signing keys. */
export const ASYMMETRIC_ALGORITHMS = ['ES256', 'RS256'] as const;
export const AUDIENCE = 'authenticated';
export const SESSION_EXPIRED = 'Session expired—please sign in';

/** Why a request was refused: its status, the message for people, and a reason for the logs. */
export interface Refusal {
  status: 401 | 500 | 503;
  error: string;
  reason: string;
}

export type Verified<T> = { ok: true; value: T } | { ok: false; refusal: Refusal };

const refuse = (status: Refusal['status'], error: string, reason: string): Verified<never> => ({
  ok: false,
  refusal: { status, error, reason },
});

/** A configuration mistake the operator must fix: the caller can do nothing about it. */
const misconfigured = (error: string): Verified<never> => refuse(500, error, 'misconfigured');

function nonEmpty(env: Env, name: string): string | undefined {
  const value = env(name)?.trim();
  return value ? value : undefined;
}

/** Compares two strings in time that does not depend on where they first differ. */
function sameSecret(a: string, b: string): boolean {
  const left = new TextEncoder().encode(a);
  const right = new TextEncoder().encode(b);
  if (left.length !== right.length) return false;
  let difference = 0;
  for (let i = 0; i < left.length; i++) difference |= (left[i] ?? 0) ^ (right[i] ?? 0);
  return difference === 0;
}

/**
 * The keys a caller may present: every value of SUPABASE_SECRET_KEYS (new-style `sb_secret_…`
 * keys; the local CLI puts the legacy service_role JWT there as `default`) and
 * SUPABASE_SERVICE_ROLE_KEY (the legacy service_role JWT).
 */
export function acceptedKeys(env: Env): Verified<string[]> {
  const keys: string[] = [];
  const secretKeys = nonEmpty(env, 'SUPABASE_SECRET_KEYS');
  if (secretKeys) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(secretKeys);
    } catch {
      parsed = undefined;
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      return misconfigured('SUPABASE_SECRET_KEYS must be a JSON object of key names and secret keys');
    }
    for (const value of Object.values(parsed)) {
      if (typeof value === 'string' && value) keys.push(value);
    }
  }
  const legacy = nonEmpty(env, 'SUPABASE_SERVICE_ROLE_KEY');
  if (legacy) keys.push(legacy);
  if (keys.length === 0) {
    return misconfigured(
      'No secret key is configured for this function: SUPABASE_SECRET_KEYS or SUPABASE_SERVICE_ROLE_KEY',
    );
  }
  return { ok: true, value: keys };
}

/** Checks the caller's `apikey` against the project's secret keys. */
export function checkCallerKey(request: Request, env: Env, name: string): Verified<true> {
  const keys = acceptedKeys(env);
  if (!keys.ok) return keys;
  const presented = request.headers.get('apikey')?.trim();
  const calledByTheApiOnly = `${name} is called by the Reshelf API only`;
  if (!presented) return refuse(401, calledByTheApiOnly, 'missing_key');
  // Every key is compared, so the time taken does not say which one nearly matched.
  let matched = false;
  for (const key of keys.value) matched = sameSecret(presented, key) || matched;
  return matched ? { ok: true, value: true } : refuse(401, calledByTheApiOnly, 'wrong_key');
}

const remoteKeySets = new Map<string, JWTVerifyGetKey>();

/** The project's JWKS, one cached key set per URL for the life of the isolate (jose refetches
 * after 10 minutes, or at most every 30 seconds when a token names a key it does not know). */
function projectKeys(url: string): JWTVerifyGetKey {
  let keys = remoteKeySets.get(url);
  if (!keys) {
    keys = createRemoteJWKSet(new URL(url));
    remoteKeySets.set(url, keys);
  }
  return keys;
}

/** Forgets the cached key sets (tests that serve a different JWKS on the same URL). */
export function forgetKeySets(): void {
  remoteKeySets.clear();
}

function supabaseUrl(env: Env): string | undefined {
  return nonEmpty(env, 'SUPABASE_URL')?.replace(/\/+$/, '');
}

function refusedToken(reason: string): Verified<never> {
  return refuse(401, SESSION_EXPIRED, reason);
}

/** Maps what jose threw to a refusal: the token's fault (401) or the key set's (503). */
function tokenRefusal(error: unknown, jwksUrl: string): Verified<never> {
  if (error instanceof errors.JWTExpired) return refusedToken('token_expired');
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'iss') return refusedToken('wrong_issuer');
    if (error.claim === 'aud') return refusedToken('wrong_audience');
    return refusedToken(`invalid_claim_${error.claim}`);
  }
  if (error instanceof errors.JWKSNoMatchingKey) return refusedToken('unknown_key');
  if (error instanceof errors.JWKSMultipleMatchingKeys) return refusedToken('ambiguous_key');
  if (error instanceof errors.JWSSignatureVerificationFailed) return refusedToken('bad_signature');
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) {
    return refusedToken('unsupported_algorithm');
  }
  if (
    error instanceof errors.JWSInvalid ||
    error instanceof errors.JWTInvalid ||
    error instanceof errors.JWKInvalid
  ) {
    return refusedToken('malformed_token');
  }
  // A key set that cannot be fetched or read: a timeout, a non-200 answer, JSON that is not a
  // JWKS, or the fetch itself failing. Not the caller's fault, and not an expired session.
  console.error(
    `Could not read the signing keys at ${jwksUrl}: ${error instanceof Error ? error.message : String(error)}`,
  );
  return refuse(
    503,
    "Could not check your session: the project's signing keys could not be fetched. Please try again in a moment.",
    'jwks_unavailable',
  );
}

/**
 * Verifies the access token and answers the user's id, or why it was refused. Never throws.
 */
export async function verifyAccessToken(token: string, env: Env): Promise<Verified<string>> {
  const url = supabaseUrl(env);
  if (!url) return misconfigured('SUPABASE_URL is not set for this function');
  if (!URL.canParse(url)) return misconfigured(`SUPABASE_URL is not a URL: ${url}`);
  const issuer = nonEmpty(env, 'JWT_ISSUER') ?? `${url}/auth/v1`;
  const jwksUrl = `${url}/auth/v1/.well-known/jwks.json`;

  let header: ProtectedHeaderParameters;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    return refusedToken('malformed_token');
  }
  const options = { issuer, audience: AUDIENCE, requiredClaims: ['exp', 'sub'] };
  let payload: JWTPayload;
  try {
    if (header.alg === 'HS256') {
      const legacySecret = nonEmpty(env, 'JWT_LEGACY_SECRET');
      if (!legacySecret) {
        // A project still signing with its legacy JWT secret: the function cannot check such
        // tokens until the operator gives it the secret (decision 0031).
        console.error(
          "An HS256 access token arrived but JWT_LEGACY_SECRET is not set: set it to the project's legacy JWT secret " +
            '(supabase secrets set JWT_LEGACY_SECRET=…), or rotate the project to an asymmetric signing key.',
        );
        return refusedToken('legacy_secret_not_configured');
      }
      ({ payload } = await jwtVerify(token, new TextEncoder().encode(legacySecret), {
        ...options,
        algorithms: ['HS256'],
      }));
    } else if (ASYMMETRIC_ALGORITHMS.some((alg) => alg === header.alg)) {
      ({ payload } = await jwtVerify(token, projectKeys(jwksUrl), {
        ...options,
        algorithms: [...ASYMMETRIC_ALGORITHMS],
      }));
    } else {
      return refusedToken('unsupported_algorithm');
    }
  } catch (error) {
    return tokenRefusal(error, jwksUrl);
  }
  // requiredClaims makes sure sub is present; a user's id is a string.
  if (typeof payload.sub !== 'string' || !payload.sub) return refusedToken('invalid_claim_sub');
  return { ok: true, value: payload.sub };
}

/** The bearer token of a request, or null when there is none. */
export function bearerToken(request: Request): string | null {
  const header = request.headers.get('authorization') ?? '';
  return /^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? null;
}
