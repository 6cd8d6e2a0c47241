import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { AdminSkeleton } from '../components/placeholders.tsx';
import { SessionCheckFailed } from '../components/SessionCheckFailed.tsx';
import { apiErrorCode, apiErrorMessage } from '../lib/api-errors.ts';
import { loginPath, pathOf } from '../lib/next-path.ts';
import { useSession } from '../lib/session.ts';
import { trpc } from '../lib/trpc.ts';
import { ForbiddenPage } from './ForbiddenPage.tsx';

/**
 * The guard of /admin and every page below it (spec sections 2 and 6). The API decides
 * (`staff.dashboard.access`: a user_roles row admin or moderator, compared lower-cased; a lookup error
 * denies). While it is asked, the skeleton; then the page, or the 403 page. Not signed in:
 * /login, coming back here afterwards.
 */
export function RequireStaff() {
  const session = useSession();
  const location = useLocation();
  const access = trpc.staff.dashboard.access.useQuery(undefined, { enabled: session.status === 'signed-in' });

  if (session.status === 'signed-out') return <Navigate to={loginPath(pathOf(location))} replace />;
  if (session.status === 'error')
    return <SessionCheckFailed retry={session.retry} retrying={session.retrying} />;
  if (session.status === 'loading' || access.isPending) return <AdminSkeleton />;
  if (access.isError) {
    const code = apiErrorCode(access.error);
    if (code === 'FORBIDDEN') return <ForbiddenPage />;
    // The session ended: the query cache marks the person signed out and the branch above redirects.
    if (code === 'UNAUTHORIZED') return <AdminSkeleton />;
    return (
      <SessionCheckFailed
        title="We couldn't check your access to the staff area."
        message={apiErrorMessage(access.error)}
        retry={() => void access.refetch()}
        retrying={access.isFetching}
      />
    );
  }
  return <Outlet />;
}
