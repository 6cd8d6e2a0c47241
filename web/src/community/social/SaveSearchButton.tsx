import { BellPlus, BellRing } from 'lucide-react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { Button } from '../../components/ui/button.tsx';
import { notify } from '../../components/ui/notify.ts';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { loginPath, pathOf } from '../../lib/next-path.ts';
import { useSession } from '../../lib/session.ts';
import { trpc } from '../../lib/trpc.ts';

/**
 * "Save this search" on /search: keeps the address with alerts at once (changed in the account).
 * Saved already: says so and links to the saved searches. Signed out: goes to /login first.
 */
export function SaveSearchButton() {
  const location = useLocation();
  const navigate = useNavigate();
  const session = useSession();
  const signedIn = session.status === 'signed-in';
  const query = location.search.replace(/^\?/, '');
  const utils = trpc.useUtils();
  const saved = trpc.community.social.savedSearches.forQuery.useQuery({ query }, { enabled: signedIn });
  const save = trpc.community.social.savedSearches.save.useMutation({
    onSuccess: (search) => {
      utils.community.social.savedSearches.forQuery.setData({ query }, search);
      void utils.community.social.savedSearches.list.invalidate();
      notify.success(`Saved “${search.name}”: we’ll tell you when a new book matches`);
    },
    onError: (error) => notify.error(apiErrorMessage(error)),
  });
  if (signedIn && saved.data) {
    return (
      <p className="flex items-center gap-2 text-sm text-ink-soft" data-testid="search-saved">
        <BellRing aria-hidden="true" className="size-4 text-brand" />
        Saved search: alerts{' '}
        {saved.data.alerts === 'off' ? 'off' : saved.data.alerts === 'daily' ? 'daily' : 'on'}.{' '}
        <Link
          to="/account/saved-searches"
          className="font-semibold text-brand underline-offset-4 hover:underline"
        >
          Manage
        </Link>
      </p>
    );
  }
  return (
    <Button
      variant="outline"
      size="sm"
      data-testid="save-search"
      disabled={signedIn && (saved.isPending || save.isPending)}
      onClick={() => {
        if (!signedIn) {
          navigate(loginPath(pathOf(location)));
          return;
        }
        save.mutate({ query, alerts: 'instant' });
      }}
    >
      <BellPlus aria-hidden="true" className="size-4" />
      Save this search
    </Button>
  );
}
