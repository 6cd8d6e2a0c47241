/**
 * "Report this listing" at the foot of a listing page: for a signed-in member who is not its
 * seller, it opens the report form; signed out, it goes to sign in and comes back. Hidden on a
 * listing our team has already removed.
 */
import type { ListingDetail } from '@reshelf/contracts';
import { Flag } from 'lucide-react';
import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { Button } from '../../components/ui/button.tsx';
import { loginPath, pathOf } from '../../lib/next-path.ts';
import { useSession } from '../../lib/session.ts';
import { trpc } from '../../lib/trpc.ts';
import { ReportDialog } from './ReportDialog.tsx';

const LINK_CLASSES = 'h-auto gap-1.5 px-0 text-sm text-ink-muted hover:text-ink';

export function ReportListing({ listing }: { listing: ListingDetail }) {
  const session = useSession();
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const report = trpc.community.moderation.member.listing.useMutation();
  if (listing.status === 'removed') return null;
  if (session.status === 'signed-out') {
    return (
      <div className="mt-6">
        <Button asChild variant="link" className={LINK_CLASSES}>
          <Link to={loginPath(pathOf(location))}>
            <Flag aria-hidden="true" className="size-4" />
            Report this listing
          </Link>
        </Button>
      </div>
    );
  }
  if (session.status !== 'signed-in' || session.user.id === listing.seller.id) return null;
  return (
    <div className="mt-6">
      <Button variant="link" className={LINK_CLASSES} onClick={() => setOpen(true)}>
        <Flag aria-hidden="true" className="size-4" />
        Report this listing
      </Button>
      <ReportDialog
        kind="listing"
        open={open}
        onOpenChange={setOpen}
        title="Report this listing"
        description={`Tell our team what’s wrong with “${listing.title}”. The seller isn’t told who reported it.`}
        send={(input) => report.mutateAsync({ listingId: listing.id, ...input })}
      />
    </div>
  );
}
