/**
 * Global admin access (spec sections 6 and 8). Tiers come from active admin_users records:
 * super_admin 4, ops_admin 3, support_agent 2, read_only 1. The client decides from `account.auth.me`
 * so a person is not shown a page they cannot use, and the API, the authority, answers the
 * same way: its FORBIDDEN messages lead to the same toasts and places. When the admin record
 * could not be read (`adminLookupFailed`), the check failed: "Failed to verify admin access"
 * and a way to try again, never a denial.
 */
import { tierForLevel } from '@reshelf/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { AdminSkeleton } from '../../components/placeholders.tsx';
import { SessionCheckFailed } from '../../components/SessionCheckFailed.tsx';
import { apiErrorCode } from '../../lib/api-errors.ts';
import { loginPath, pathOf } from '../../lib/next-path.ts';
import { refreshSession, useSession } from '../../lib/session.ts';

export const LOGIN_REQUIRED_TOAST = 'Please log in to access the admin panel';
export const ADMIN_REQUIRED_TOAST = 'Access denied: Admin privileges required';
export const VERIFY_FAILED_TOAST = 'Failed to verify admin access';
export function roleRequiredToast(role: string): string {
  return `Access denied: ${role} role required`;
}
const ROLE_REQUIRED = /^Access denied: \w+ role required$/;

/** One toast at a time for access problems: a repeat replaces the earlier one. */
const TOAST_ID = 'admin-access';

/** Says why (a toast) and goes elsewhere, replacing this page in the history. */
function Deny({ message, to }: { message: string; to: string }) {
  const navigate = useNavigate();
  useEffect(() => {
    toast.error(message, { id: TOAST_ID });
    void navigate(to, { replace: true });
  }, [message, to, navigate]);
  return <AdminSkeleton />;
}

/** The check itself failed (connection, server): say so, and offer to try again. */
function CheckFailed({
  retry,
  retrying,
  message = 'Check your connection, then try again.',
}: {
  retry: () => void;
  retrying: boolean;
  message?: string;
}) {
  useEffect(() => {
    toast.error(VERIFY_FAILED_TOAST, { id: TOAST_ID });
  }, []);
  return (
    <SessionCheckFailed title={VERIFY_FAILED_TOAST} message={message} retry={retry} retrying={retrying} />
  );
}

/** `account.auth.me` could not read the admin record: neither allowed nor denied yet. */
function LookupFailed() {
  const queryClient = useQueryClient();
  const [retrying, setRetrying] = useState(false);
  const retry = () => {
    setRetrying(true);
    void refreshSession(queryClient).finally(() => setRetrying(false));
  };
  return (
    <CheckFailed
      retry={retry}
      retrying={retrying}
      message="We couldn't read your admin record just now. Try again in a moment."
    />
  );
}

/** The layout route around a global admin page that needs at least `level`. */
export function RequireAdminTier({ level }: { level: number }) {
  const session = useSession();
  const location = useLocation();
  const requiredRole = tierForLevel(level) ?? 'read_only';

  switch (session.status) {
    case 'loading':
      return <AdminSkeleton />;
    case 'error':
      return <CheckFailed retry={session.retry} retrying={session.retrying} />;
    case 'signed-out':
      return <Deny message={LOGIN_REQUIRED_TOAST} to={loginPath(pathOf(location))} />;
  }
  const { user } = session;
  if (user.adminLookupFailed) return <LookupFailed />;
  if (!user.adminTier || user.adminLevel < 1) return <Deny message={ADMIN_REQUIRED_TOAST} to="/" />;
  if (user.adminLevel < level) return <Deny message={roleRequiredToast(requiredRole)} to="/admin" />;
  return <Outlet />;
}

/**
 * What a global admin page shows when its API call failed. FORBIDDEN answers carry the spec's
 * messages and lead where the guard would have sent the person; UNAUTHORIZED means the session
 * ended (the query cache marks the person signed out and the guard sends them to /login);
 * anything else is a failed check.
 */
export function AdminCallFailed({
  error,
  retry,
  retrying,
}: {
  error: unknown;
  retry: () => void;
  retrying: boolean;
}) {
  const queryClient = useQueryClient();
  const code = apiErrorCode(error);
  const message = error instanceof Error ? error.message : '';
  const denied = code === 'FORBIDDEN' && (message === ADMIN_REQUIRED_TOAST || ROLE_REQUIRED.test(message));

  useEffect(() => {
    // The server knows better than our copy of `account.auth.me`: read it again.
    if (denied) void refreshSession(queryClient);
  }, [denied, queryClient]);

  if (code === 'UNAUTHORIZED') return <AdminSkeleton />;
  if (denied) return <Deny message={message} to={message === ADMIN_REQUIRED_TOAST ? '/' : '/admin'} />;
  return <CheckFailed retry={retry} retrying={retrying} />;
}

/**
 * For a global admin action the server refused by tier (someone's tier changed since the page
 * loaded, or a button the page hid was reached anyway): the spec's toast, and `account.auth.me` read
 * again so the page shows what the person may still do. Answers whether it was such a refusal.
 */
export function useTierRefusal(): (error: unknown) => boolean {
  const queryClient = useQueryClient();
  return useCallback(
    (error: unknown) => {
      const message = error instanceof Error ? error.message : '';
      if (apiErrorCode(error) !== 'FORBIDDEN') return false;
      if (message !== ADMIN_REQUIRED_TOAST && !ROLE_REQUIRED.test(message)) return false;
      toast.error(message, { id: TOAST_ID });
      void refreshSession(queryClient);
      return true;
    },
    [queryClient],
  );
}
