/**
 * "Report this member" on a member's page (/seller/:id): their name, bio or photo, with a
 * profile's reasons. Not offered on your own page.
 */
import { trpc } from '../../lib/trpc.ts';
import { ReportControl } from './ReportControl.tsx';

export function ReportProfile({ profileId, name }: { profileId: string; name: string }) {
  const report = trpc.community.moderation.member.profile.useMutation();
  return (
    <ReportControl
      kind="profile"
      label="Report this member"
      authorId={profileId}
      description={`Tell our team what’s wrong with ${name}’s name, bio or photo. They aren’t told who reported them.`}
      send={(input) => report.mutateAsync({ profileId, ...input })}
    />
  );
}
