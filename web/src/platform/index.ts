/** The platform's widgets other domains show (the web's import rule: api/scripts/check-imports.ts). */
export { DevMailboxHint } from './dev/DevMailboxHint.tsx';
