import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { SessionSkeleton } from '../../components/placeholders.tsx';
import { SessionCheckFailed } from '../../components/SessionCheckFailed.tsx';
import { loginPath, pathOf } from '../../lib/next-path.ts';
import { useSession } from '../../lib/session.ts';

/**
 * The layout route around every signed-in page (spec section 2). While the session loads it
 * shows a placeholder; without a session it sends the person to /login?next=<this page>,
 * replacing this entry in the history so that Back does not return to a page they cannot see.
 * When a call answers UNAUTHORIZED later (the session expired), the query cache marks the
 * person signed out and this guard does the same.
 */
export function RequireAuth() {
  const session = useSession();
  const location = useLocation();
  switch (session.status) {
    case 'signed-in':
      return <Outlet />;
    case 'signed-out':
      return <Navigate to={loginPath(pathOf(location))} replace />;
    case 'error':
      return <SessionCheckFailed retry={session.retry} retrying={session.retrying} />;
    default:
      return <SessionSkeleton />;
  }
}
