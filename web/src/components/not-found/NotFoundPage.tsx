import { usePageMeta } from '../../lib/page-meta.ts';
import { NotFoundContent } from './NotFoundContent.tsx';

export function NotFoundPage() {
  usePageMeta('Page not found', "We couldn't find the page you were looking for on Reshelf.");
  return <NotFoundContent />;
}
