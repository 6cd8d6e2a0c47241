/**
 * A "Report …" link for something a member posted, where it appears: signed in (and not its
 * author, when that is known here), it opens the report form with the reasons for its kind;
 * signed out, it leads to sign in and back. The server refuses a report of your own content in
 * words, shown in the form.
 */
import type { ReportTargetKind } from '@reshelf/contracts';
import { Flag } from 'lucide-react';
import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { Button } from '../../components/ui/button.tsx';
import { loginPath, pathOf } from '../../lib/next-path.ts';
import { useSession } from '../../lib/session.ts';
import { cn } from '../../lib/utils.ts';
import { ReportDialog, type ReportDialogProps } from './ReportDialog.tsx';

const LINK_CLASSES = 'h-auto min-h-6 gap-1.5 px-0 text-sm text-ink-muted hover:text-ink';

export function ReportControl({
  kind,
  label,
  description,
  authorId,
  send,
  className,
}: {
  kind: ReportTargetKind;
  /** The link's words and the form's title ("Report this member"). */
  label: string;
  description: string;
  /** Who posted it, if known: they are not offered the link. */
  authorId?: string;
  send: ReportDialogProps['send'];
  className?: string;
}) {
  const session = useSession();
  const location = useLocation();
  const [open, setOpen] = useState(false);
  if (session.status === 'signed-out') {
    return (
      <Button asChild variant="link" className={cn(LINK_CLASSES, className)}>
        <Link to={loginPath(pathOf(location))}>
          <Flag aria-hidden="true" className="size-4" />
          {label}
        </Link>
      </Button>
    );
  }
  if (session.status !== 'signed-in' || session.user.id === authorId) return null;
  return (
    <>
      <Button variant="link" className={cn(LINK_CLASSES, className)} onClick={() => setOpen(true)}>
        <Flag aria-hidden="true" className="size-4" />
        {label}
      </Button>
      <ReportDialog
        kind={kind}
        open={open}
        onOpenChange={setOpen}
        title={label}
        description={description}
        send={send}
      />
    </>
  );
}
