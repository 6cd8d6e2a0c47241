/** The charities domain's widgets other domains show (the web's import rule: api/scripts/check-imports.ts). */
export { CharityCard } from './CharityCard.tsx';
