/**
 * Personal API tokens: created and revoked in account settings, sent as
 * `Authorization: Bearer rsk_…` to /api/v1 and /trpc. Shared by the BFF and the web form.
 */
import { z } from 'zod';

export const API_TOKEN_PREFIX = 'rsk_';
export const API_TOKEN_SCOPES = ['read', 'read_write'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];
export const API_TOKEN_SCOPE_LABELS: Record<ApiTokenScope, string> = {
  read: 'Read only',
  read_write: 'Read and write',
};

/** How long a new token lasts; the default is the third. */
export const API_TOKEN_LIFETIMES_DAYS = [7, 30, 90, 365] as const;
export const API_TOKEN_DEFAULT_LIFETIME_DAYS = 90;
/** Live (neither revoked nor expired) tokens one person may hold. */
export const API_TOKEN_MAX_LIVE = 20;

/** Who may hold tokens, and the message for everyone else. */
export const API_TOKEN_HOLDER_KINDS = ['staff', 'seller', 'charity'] as const;
export type ApiTokenHolderKind = (typeof API_TOKEN_HOLDER_KINDS)[number];
export const API_TOKEN_NOT_ELIGIBLE_MESSAGE =
  'API tokens are for staff, sellers and charities. Publish a listing (or have your charity approved) to create one.';

export const apiTokenNameSchema = z
  .string('Give the token a name')
  .trim()
  .min(1, 'Give the token a name, such as "Stock script"')
  .max(80, 'The name can be at most 80 characters')
  .meta({ examples: ['Stock script'] });

export const createApiTokenInputSchema = z.object({
  name: apiTokenNameSchema,
  scope: z.enum(API_TOKEN_SCOPES, 'Choose read or read_write'),
  expiresInDays: z
    .union(
      API_TOKEN_LIFETIMES_DAYS.map((days) => z.literal(days)),
      `Choose how long the token lasts: ${API_TOKEN_LIFETIMES_DAYS.join(', ')} days`,
    )
    .default(API_TOKEN_DEFAULT_LIFETIME_DAYS),
});
export type CreateApiTokenInput = z.input<typeof createApiTokenInputSchema>;

export const API_TOKEN_STATUSES = ['active', 'expired', 'revoked'] as const;

export const apiTokenSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  /** The first characters of the token, e.g. "rsk_AbCd1234", to tell tokens apart. */
  prefix: z.string(),
  scope: z.enum(API_TOKEN_SCOPES),
  status: z.enum(API_TOKEN_STATUSES),
  createdAt: z.string(),
  expiresAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

export const apiTokenListSchema = z.object({
  /** Whether the caller may create tokens (staff, sellers and charities). */
  eligible: z.boolean(),
  holderKinds: z.array(z.enum(API_TOKEN_HOLDER_KINDS)),
  tokens: z.array(apiTokenSchema),
});
export type ApiTokenList = z.infer<typeof apiTokenListSchema>;

export const createdApiTokenSchema = apiTokenSchema.extend({
  /** The token itself: shown once, never again. */
  token: z.string(),
});
export type CreatedApiToken = z.infer<typeof createdApiTokenSchema>;
