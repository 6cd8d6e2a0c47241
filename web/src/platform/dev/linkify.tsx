import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

const URL_PATTERN = /https?:\/\/[^\s<>"')]+/g;

/**
 * Plain text with its web addresses made clickable. Addresses on this site open in the app
 * (so a confirmation link keeps the current tab); others open in a new tab.
 */
export function linkify(text: string, origin: string = window.location.origin): ReactNode[] {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const start = match.index ?? 0;
    // A sentence's full stop is not part of the address.
    const href = match[0].replace(/[.,;:!?]+$/, '');
    if (start > last) parts.push(text.slice(last, start));
    parts.push(<MailLink key={`${start}-${href}`} href={href} origin={origin} />);
    last = start + href.length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

const linkClass = 'break-all font-semibold text-brand underline underline-offset-2 hover:text-brand-hover';

function MailLink({ href, origin }: { href: string; origin: string }) {
  let url: URL | null = null;
  try {
    url = new URL(href);
  } catch {
    return <>{href}</>;
  }
  if (url.origin === origin) {
    return (
      <Link to={`${url.pathname}${url.search}${url.hash}`} className={linkClass}>
        {href}
      </Link>
    );
  }
  return (
    <a href={href} target="_blank" rel="noreferrer" className={linkClass}>
      {href}
    </a>
  );
}
