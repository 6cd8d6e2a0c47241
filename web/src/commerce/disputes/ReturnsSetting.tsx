/**
 * A private seller's choice to accept returns for any reason: shown on their
 * listings, for PROTECTION_RULES.privateReturnDays after delivery, the buyer paying the postage.
 */
import { PROTECTION_RULES } from '@reshelf/contracts';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { notify } from '../../components/ui/notify.ts';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { trpc } from '../../lib/trpc.ts';

export function ReturnsSetting() {
  const utils = trpc.useUtils();
  const setting = trpc.commerce.disputes.member.returnsSetting.useQuery({});
  // The box turns at once, as a checkbox should; if the server refuses, it turns back and says why.
  const [asked, setAsked] = useState<boolean | null>(null);
  const save = trpc.commerce.disputes.member.setReturnsSetting.useMutation({
    onSuccess: (result) => {
      utils.commerce.disputes.member.returnsSetting.setData({}, result);
      notify.success(
        result.acceptsReturns ? 'Your listings now show that you accept returns' : 'Returns turned off',
      );
    },
    onError: (error) => notify.error(apiErrorMessage(error)),
    onSettled: () => setAsked(null),
  });
  if (!setting.data) return null;
  return (
    <label
      className="mt-4 flex max-w-3xl cursor-pointer items-start gap-3 rounded-xl border border-line bg-paper p-4 text-sm"
      data-testid="returns-setting"
    >
      <input
        type="checkbox"
        className="mt-0.5 size-4 shrink-0 accent-brand"
        checked={asked ?? setting.data.acceptsReturns}
        disabled={save.isPending}
        onChange={(event) => {
          setAsked(event.target.checked);
          save.mutate({ acceptsReturns: event.target.checked });
        }}
      />
      <span>
        <span className="font-semibold text-ink">Accept returns for any reason</span>
        <span className="block text-ink-soft">
          Buyers may send a book back within {PROTECTION_RULES.privateReturnDays} days of delivery, paying the
          return postage; your listings say so.{' '}
          <Link to="/help-centre/buyer-protection" className="underline">
            The rules
          </Link>
        </span>
      </span>
    </label>
  );
}
