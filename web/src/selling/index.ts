/** The selling domain's widgets other domains show (the web's import rule: api/scripts/check-imports.ts). */
export { PeriodPicker, SellerAnalyticsPanel } from './analytics/SellerAnalytics.tsx';
export { IsbnForm } from './listings/IsbnForm.tsx';
