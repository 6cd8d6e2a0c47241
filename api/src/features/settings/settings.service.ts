/**
 * Commercial settings (brief section 4): the buyer-protection fee and the postage bands are
 * settings staff can change, read through this one service. A missing key falls back to the
 * starting values in @reshelf/contracts; a malformed one is an error, never a silent guess
 * about what to charge.
 */
import { type BuyerProtectionRule, COMMERCIAL_DEFAULTS, type ParcelSize } from '@reshelf/contracts';
import { z } from 'zod';
import type { Database } from '../../db/index.ts';

export interface CommercialSettings {
  buyerProtection: BuyerProtectionRule;
  postageMinor: Record<ParcelSize, number>;
}

const pence = z.number().int().min(0).max(100_000);
const buyerProtectionSchema = z.object({ fixedMinor: pence, percent: z.number().min(0).max(100) });
const postageBandsSchema = z.object({ small: pence, medium: pence, large: pence });

export const COMMERCIAL_SETTING_KEYS = {
  buyerProtection: 'buyer_protection',
  postageBands: 'postage_bands',
} as const;

export async function getCommercialSettings(db: Database): Promise<CommercialSettings> {
  const rows = await db
    .selectFrom('settings')
    .select(['key', 'value'])
    .where('key', 'in', Object.values(COMMERCIAL_SETTING_KEYS))
    .execute();
  const byKey = new Map(rows.map((row) => [row.key, row.value]));
  const protection = byKey.get(COMMERCIAL_SETTING_KEYS.buyerProtection);
  const postage = byKey.get(COMMERCIAL_SETTING_KEYS.postageBands);
  return {
    buyerProtection:
      protection === undefined
        ? {
            fixedMinor: COMMERCIAL_DEFAULTS.buyerProtectionFixedMinor,
            percent: COMMERCIAL_DEFAULTS.buyerProtectionPercent,
          }
        : buyerProtectionSchema.parse(protection),
    postageMinor:
      postage === undefined ? { ...COMMERCIAL_DEFAULTS.postageMinor } : postageBandsSchema.parse(postage),
  };
}
