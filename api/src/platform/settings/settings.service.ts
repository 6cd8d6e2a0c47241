/**
 * Commercial settings (brief section 4): the buyer-protection fee and the label rate card
 * (postage per band and delivery method, decision 0083) are
 * settings staff can change, read through this one service. A missing key falls back to the
 * starting values in @reshelf/contracts; a malformed one is an error, never a silent guess
 * about what to charge.
 */
import {
  type BuyerProtectionRule,
  COMMERCIAL_DEFAULTS,
  DEFAULT_POSTAGE_RATES,
  type PostageRateCard,
} from '@reshelf/contracts';
import { z } from 'zod';
import type { Database } from '../../db/index.ts';

export interface CommercialSettings {
  buyerProtection: BuyerProtectionRule;
  /** What a label costs per band and delivery method: what the buyer pays for postage. */
  postageRates: PostageRateCard;
}

const pence = z.number().int().min(0).max(100_000);
const buyerProtectionSchema = z.object({ fixedMinor: pence, percent: z.number().min(0).max(100) });
const methodRatesSchema = z.object({ home: pence, drop_off: pence });
/** The label rate card as stored (setting `postage_rates`): pence per band and method. */
export const postageRatesSchema = z.object({
  large_letter: methodRatesSchema,
  small_parcel: methodRatesSchema,
  medium_parcel: methodRatesSchema,
}) satisfies z.ZodType<PostageRateCard>;

export const COMMERCIAL_SETTING_KEYS = {
  buyerProtection: 'buyer_protection',
  postageRates: 'postage_rates',
} as const;

export async function getCommercialSettings(db: Database): Promise<CommercialSettings> {
  const rows = await db
    .selectFrom('settings')
    .select(['key', 'value'])
    .where('key', 'in', Object.values(COMMERCIAL_SETTING_KEYS))
    .execute();
  return commercialSettingsOf(new Map(rows.map((row) => [row.key, row.value])));
}

/** The settings from their stored values by key: defaults for a missing key, an error for a malformed one. */
export function commercialSettingsOf(byKey: ReadonlyMap<string, unknown>): CommercialSettings {
  const protection = byKey.get(COMMERCIAL_SETTING_KEYS.buyerProtection);
  const postage = byKey.get(COMMERCIAL_SETTING_KEYS.postageRates);
  return {
    buyerProtection:
      protection === undefined
        ? {
            fixedMinor: COMMERCIAL_DEFAULTS.buyerProtectionFixedMinor,
            percent: COMMERCIAL_DEFAULTS.buyerProtectionPercent,
          }
        : buyerProtectionSchema.parse(protection),
    postageRates:
      postage === undefined ? structuredClone(DEFAULT_POSTAGE_RATES) : postageRatesSchema.parse(postage),
  };
}

/**
 * The settings as one statement's sub-select reads them (COMMERCIAL_SETTINGS_SQL: a JSON object
 * of key → value, as text, or null when neither key is set). The listing page reads them inside
 * its own statement instead of a second round trip, so they are never stale (no bound to
 * document: each answer sees the settings of its own snapshot); parsing is kept in process by
 * that text, which changes only when staff change a value.
 */
export function commercialSettingsFromText(text: string | null): CommercialSettings {
  const key = text ?? '';
  const known = parsedByText.get(key);
  if (known) return known;
  const values = text === null ? {} : (JSON.parse(text) as Record<string, unknown>);
  const settings = commercialSettingsOf(new Map(Object.entries(values)));
  // A handful at most (one per version the settings have had while this process ran).
  if (parsedByText.size >= 16) parsedByText.clear();
  parsedByText.set(key, settings);
  return settings;
}

const parsedByText = new Map<string, CommercialSettings>();

/** The sub-select commercialSettingsFromText reads (its keys are constants, not input). */
export const COMMERCIAL_SETTINGS_SQL = `(select json_object_agg(s.key, s.value order by s.key)::text
    from public.settings s
    where s.key in (${Object.values(COMMERCIAL_SETTING_KEYS)
      .map((key) => `'${key}'`)
      .join(', ')}))`;
