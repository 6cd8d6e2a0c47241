import { WANT_WORDS, type WantView, wantConditionsLine } from '@reshelf/contracts';
import { BookHeart } from 'lucide-react';
import { useId, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { Button } from '../../components/ui/button.tsx';
import { notify } from '../../components/ui/notify.ts';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { loginPath, pathOf } from '../../lib/next-path.ts';
import { useSession } from '../../lib/session.ts';
import { trpc } from '../../lib/trpc.ts';
import { WantForm, type WantFormValue } from './WantForm.tsx';

/**
 * "Want this book" on the book page (decision 0088): any edition, or the edition chosen on the
 * page, with the conditions a copy must meet and how to be told. When the member wants it
 * already, says "You want this" with each want's conditions, to edit or remove.
 */
export function WantButton({
  workId,
  edition,
}: {
  workId: string;
  /** The edition chosen on the page (?edition=), if one is. */
  edition: { id: string; name: string } | null;
}) {
  const location = useLocation();
  const navigate = useNavigate();
  const session = useSession();
  const signedIn = session.status === 'signed-in';
  const utils = trpc.useUtils();
  const wants = trpc.community.wants.forBook.useQuery({ workId }, { enabled: signedIn });
  const [open, setOpen] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const [scope, setScope] = useState<'work' | 'edition'>(edition ? 'edition' : 'work');
  const scopeName = useId();
  const changed = () => {
    void utils.community.wants.forBook.invalidate({ workId });
    void utils.community.wants.list.invalidate();
  };
  const add = trpc.community.wants.add.useMutation({
    onSuccess: () => {
      changed();
      setOpen(false);
      notify.success('Saved: we’ll tell you when a copy is on sale');
    },
    onError: (error) => notify.error(apiErrorMessage(error)),
  });
  const update = trpc.community.wants.update.useMutation({
    onSuccess: (want, input) => {
      changed();
      setEditing(null);
      notify.success(WANT_WORDS.changed(want.id !== input.id));
    },
    onError: (error) => notify.error(apiErrorMessage(error)),
  });
  const remove = trpc.community.wants.remove.useMutation({
    onSuccess: () => {
      changed();
      notify.success('Removed from your wants');
    },
    onError: (error) => notify.error(apiErrorMessage(error)),
  });

  const save = (value: WantFormValue) =>
    add.mutate({
      target:
        scope === 'edition' && edition ? { kind: 'edition', bookId: edition.id } : { kind: 'work', workId },
      conditions: value.conditions,
      alerts: value.alerts,
    });

  const mine = wants.data ?? [];
  return (
    <section
      className="mt-4 rounded-xl border border-line bg-paper p-4"
      data-testid="want-this"
      aria-label="Want this book"
    >
      {mine.length > 0 ? (
        <div data-testid="you-want-this">
          <p className="flex items-center gap-2 font-semibold text-ink">
            <BookHeart aria-hidden="true" className="size-5 text-brand" />
            You want this
          </p>
          <ul className="mt-2 flex flex-col gap-2 text-sm">
            {mine.map((want) => (
              <WantLine
                key={want.id}
                want={want}
                editing={editing === want.id}
                busy={update.isPending || remove.isPending}
                onEdit={() => setEditing(want.id)}
                onCancel={() => setEditing(null)}
                onSave={(value) => update.mutate({ id: want.id, ...value })}
                onRemove={() => remove.mutate({ id: want.id })}
              />
            ))}
          </ul>
          <p className="mt-2 text-sm">
            <Link to="/account/wants" className="font-semibold text-brand underline-offset-4 hover:underline">
              All your wants
            </Link>
          </p>
        </div>
      ) : null}
      {open ? (
        <WantForm
          submitLabel="Save want"
          busy={add.isPending}
          onSubmit={save}
          onCancel={() => setOpen(false)}
        >
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 font-semibold text-ink">Which copies?</legend>
            <label className="flex min-h-9 items-center gap-2">
              <input
                type="radio"
                name={scopeName}
                className="size-4 accent-brand"
                checked={scope === 'work'}
                onChange={() => setScope('work')}
              />
              {WANT_WORDS.kind.work}
            </label>
            {edition ? (
              <label className="flex min-h-9 items-center gap-2">
                <input
                  type="radio"
                  name={scopeName}
                  className="size-4 accent-brand"
                  checked={scope === 'edition'}
                  onChange={() => setScope('edition')}
                />
                {WANT_WORDS.kind.edition}: {edition.name}
              </label>
            ) : (
              <p className="text-ink-muted">To want one edition only, choose it under Editions first.</p>
            )}
          </fieldset>
        </WantForm>
      ) : (
        <div className={mine.length ? 'mt-3' : ''}>
          <Button
            variant={mine.length ? 'outline' : 'brand'}
            size="sm"
            data-testid="want-button"
            onClick={() => {
              if (!signedIn) {
                navigate(loginPath(pathOf(location)));
                return;
              }
              setOpen(true);
            }}
          >
            <BookHeart aria-hidden="true" className="size-4" />
            {mine.length ? 'Want it another way' : 'Want this book'}
          </Button>
          {mine.length === 0 ? (
            <p className="mt-2 text-sm text-ink-muted">
              No copy you like on sale? We’ll tell you when one is listed: any edition or this one, with the
              conditions you choose.
            </p>
          ) : null}
        </div>
      )}
    </section>
  );
}

function WantLine({
  want,
  editing,
  busy,
  onEdit,
  onCancel,
  onSave,
  onRemove,
}: {
  want: WantView;
  editing: boolean;
  busy: boolean;
  onEdit: () => void;
  onCancel: () => void;
  onSave: (value: WantFormValue) => void;
  onRemove: () => void;
}) {
  return (
    <li data-testid="my-want">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span>
          <span className="font-medium text-ink">{WANT_WORDS.kind[want.kind]}</span>
          {' · '}
          <span className="text-ink-soft">{wantConditionsLine(want.conditions)}</span>
        </span>
        {editing ? null : (
          <span className="flex gap-2">
            <Button variant="link" size="sm" onClick={onEdit}>
              Edit
            </Button>
            <Button variant="link" size="sm" disabled={busy} onClick={onRemove}>
              Remove
            </Button>
          </span>
        )}
      </div>
      {editing ? (
        <WantForm
          initial={{ conditions: want.conditions, alerts: want.alerts }}
          focusFirst
          submitLabel="Save changes"
          busy={busy}
          onSubmit={onSave}
          onCancel={onCancel}
        />
      ) : null}
    </li>
  );
}
