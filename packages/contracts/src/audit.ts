/**
 * The audit log's details as staff read them, the one formatter of them: each key in
 * words ("refundedMinor" is "Refunded", "run_id" "Run ID") and each value as the site shows it
 * (an amount in pence, a key ending in Minor, in pounds; yes or no; a list joined).
 */
import { formatPence } from './money.ts';

export interface AuditDetailLine {
  label: string;
  value: string;
}

const NUMBER = new Intl.NumberFormat('en-GB');

/** The words of a key: camelCase and snake_case split, "Minor" dropped, "id" as "ID". */
function labelOf(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
  if (words.length > 1 && words.at(-1) === 'minor') words.pop();
  const text = words.map((word) => (word === 'id' ? 'ID' : word)).join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const isPence = (key: string) => /(Minor|_minor)$/.test(key);

function textOf(key: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number')
    return isPence(key) && Number.isInteger(value) ? formatPence(value) : NUMBER.format(value);
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map((item) => textOf(key, item)).join(', ');
  if (typeof value === 'object') {
    return auditDetailLines(value as Record<string, unknown>)
      .map((line) => `${line.label}: ${line.value}`)
      .join('; ');
  }
  return String(value);
}

/** An audit entry's details, key by key, in the order recorded. */
export function auditDetailLines(details: Record<string, unknown>): AuditDetailLine[] {
  return Object.entries(details).map(([key, value]) => ({ label: labelOf(key), value: textOf(key, value) }));
}
