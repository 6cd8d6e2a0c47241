/**
 * "Report this charity's page" on a charity's page (/charity/:slug): the description and logo its
 * team wrote, with a profile's reasons. Its own team is refused by the server, in words.
 */
import { trpc } from '../../lib/trpc.ts';
import { ReportControl } from './ReportControl.tsx';

export function ReportCharity({ charityId, name }: { charityId: string; name: string }) {
  const report = trpc.community.moderation.member.charity.useMutation();
  return (
    <ReportControl
      kind="charity"
      label="Report this charity’s page"
      description={`Tell our team what’s wrong with ${name}’s description or logo. They aren’t told who reported them.`}
      send={(input) => report.mutateAsync({ charityId, ...input })}
    />
  );
}
