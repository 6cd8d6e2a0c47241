/**
 * "Report this member" on a member's page (/seller/:id): their name, bio or photo. For a
 * signed-in member who is not them, it opens the report form with a profile's reasons; signed
 * out, it goes to sign in and comes back. Not shown on your own page.
 */
import { Flag } from 'lucide-react';
import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { Button } from '../../components/ui/button.tsx';
import { loginPath, pathOf } from '../../lib/next-path.ts';
import { useSession } from '../../lib/session.ts';
import { trpc } from '../../lib/trpc.ts';
import { ReportDialog } from './ReportDialog.tsx';

const LINK_CLASSES = 'h-auto min-h-6 gap-1.5 px-0 text-sm text-ink-muted hover:text-ink';

export function ReportProfile({ profileId, name }: { profileId: string; name: string }) {
  const session = useSession();
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const report = trpc.community.moderation.member.profile.useMutation();
  if (session.status === 'signed-out') {
    return (
      <Button asChild variant="link" className={LINK_CLASSES}>
        <Link to={loginPath(pathOf(location))}>
          <Flag aria-hidden="true" className="size-4" />
          Report this member
        </Link>
      </Button>
    );
  }
  if (session.status !== 'signed-in' || session.user.id === profileId) return null;
  return (
    <>
      <Button variant="link" className={LINK_CLASSES} onClick={() => setOpen(true)}>
        <Flag aria-hidden="true" className="size-4" />
        Report this member
      </Button>
      <ReportDialog
        kind="profile"
        open={open}
        onOpenChange={setOpen}
        title="Report this member"
        description={`Tell our team what’s wrong with ${name}’s name, bio or photo. They aren’t told who reported them.`}
        send={(input) => report.mutateAsync({ profileId, ...input })}
      />
    </>
  );
}
