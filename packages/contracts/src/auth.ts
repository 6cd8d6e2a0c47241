import { z } from 'zod';

export const emailSchema = z
  .string()
  .trim()
  .min(1, 'Enter your email address')
  .max(254, 'An email address is at most 254 characters')
  .pipe(z.email('Enter an email address like name@example.com'));

/** The full policy (common passwords) is checked by the server; this mirrors the length rule. */
export const newPasswordSchema = z
  .string()
  .min(10, 'Use at least 10 characters')
  .max(128, 'Use at most 128 characters');

export const passwordSchema = z.string().min(1, 'Enter your password').max(128, 'Use at most 128 characters');

export const displayNameSchema = z
  .string()
  .trim()
  .min(1, 'Enter the name other people will see')
  .max(60, 'Use at most 60 characters');

export const oneTimeTokenSchema = z
  .string()
  .trim()
  .min(20, 'This link is incomplete')
  .max(200, 'This link is not valid');

export const meSchema = z.object({
  id: z.string().uuid(),
  email: z.string(),
  emailConfirmed: z.boolean(),
  displayName: z.string(),
  signupCompleted: z.boolean(),
  onboarded: z.boolean(),
  roles: z.array(z.string()),
  isStaff: z.boolean(),
  isAdmin: z.boolean(),
  adminTier: z.string().nullable(),
  adminLevel: z.number().int(),
  /**
   * The admin record could not be read (a database error), so `adminTier` says nothing: the
   * global-admin guard shows "Failed to verify admin access" rather than a denial (spec §8).
   */
  adminLookupFailed: z.boolean(),
  /** The charity whose team the member is on (a person acts for one charity at a time), by slug. */
  charitySlug: z.string().nullable(),
});
export type MeDto = z.infer<typeof meSchema>;

export const sessionTokensSchema = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  expiresAt: z.number().int(),
});

export const signInResultSchema = z.object({
  user: meSchema,
  /** Only for clients that hold their own tokens (the app, scripts); browsers get cookies. */
  tokens: sessionTokensSchema.optional(),
});
