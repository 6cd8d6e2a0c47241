/** The API tokens part of /account/settings: create, copy once, list and revoke personal tokens. */
import { zodResolver } from '@hookform/resolvers/zod';
import {
  API_TOKEN_DEFAULT_LIFETIME_DAYS,
  API_TOKEN_LIFETIMES_DAYS,
  API_TOKEN_MAX_LIVE,
  API_TOKEN_NOT_ELIGIBLE_MESSAGE,
  API_TOKEN_SCOPE_LABELS,
  API_TOKEN_SCOPES,
  type ApiToken,
  type CreatedApiToken,
  createApiTokenInputSchema,
} from '@reshelf/contracts';
import { Check, Copy, KeyRound, Loader2 } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Field } from '../../components/form/Field.tsx';
import { SubmitButton } from '../../components/form/SubmitButton.tsx';
import { RowsSkeleton } from '../../components/placeholders.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { fieldClasses, Input } from '../../components/ui/input.tsx';
import { notify } from '../../components/ui/notify.ts';
import { QueryView, showServerError } from '../../kit/index.ts';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { cn } from '../../lib/utils.ts';
import { textLinkClass } from '../auth/AuthShell.tsx';
import { useApiTokens, useCreateApiToken, useRevokeApiToken } from './hooks.ts';

const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
const dateTimeFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

export function ApiTokensSection() {
  const tokens = useApiTokens();
  const [created, setCreated] = useState<CreatedApiToken | null>(null);

  return (
    <section
      aria-labelledby="api-tokens"
      data-testid="api-tokens"
      className="mt-8 flex flex-col gap-5 rounded-xl border border-line bg-paper p-5 shadow-card sm:p-6"
    >
      <h2 id="api-tokens" className="flex items-center gap-2.5 text-xl font-semibold">
        <span className="flex size-9 items-center justify-center rounded-full bg-brand-soft text-brand">
          <KeyRound aria-hidden="true" className="size-4.5" />
        </span>
        API tokens
      </h2>
      <p className="text-ink-soft">
        A token lets a script or another app use Reshelf as you, through the{' '}
        <a href="/api/docs" className={textLinkClass}>
          Reshelf API
        </a>{' '}
        or <code className="rounded bg-paper-deep px-1 text-sm">pnpm ops</code>. Send it as{' '}
        <code className="break-words rounded bg-paper-deep px-1 text-sm">Authorization: Bearer rsk_…</code>. A
        read-only token cannot change anything. Revoke a token you no longer use, or one that may have been
        seen by someone else.
      </p>

      <QueryView
        query={tokens}
        pending={<RowsSkeleton label="Loading your tokens" rows={['h-10 w-full', 'h-10 w-2/3']} />}
        error={(message, retry) => (
          <Alert tone="error">
            {message}{' '}
            <button type="button" className="font-semibold text-brand underline" onClick={retry}>
              Try again
            </button>
          </Alert>
        )}
      >
        {(data) => (
          <>
            {created ? <NewToken token={created} onDone={() => setCreated(null)} /> : null}
            {data.eligible ? (
              <CreateTokenForm onCreated={setCreated} />
            ) : (
              <Alert tone="info" data-testid="tokens-not-eligible">
                {API_TOKEN_NOT_ELIGIBLE_MESSAGE}
              </Alert>
            )}
            <TokenList tokens={data.tokens} />
          </>
        )}
      </QueryView>
    </section>
  );
}

type FormValues = z.input<typeof createApiTokenInputSchema>;

function CreateTokenForm({ onCreated }: { onCreated: (token: CreatedApiToken) => void }) {
  const create = useCreateApiToken();
  const form = useForm<FormValues, unknown, z.output<typeof createApiTokenInputSchema>>({
    resolver: zodResolver(createApiTokenInputSchema),
    defaultValues: { name: '', scope: 'read', expiresInDays: API_TOKEN_DEFAULT_LIFETIME_DAYS },
    mode: 'onTouched',
  });
  const { errors, isSubmitting } = form.formState;
  const problem = errors.root?.server?.message;

  const onSubmit = form.handleSubmit(async (values) => {
    form.clearErrors('root');
    try {
      const token = await create.mutateAsync(values);
      onCreated(token);
      form.reset({ name: '', scope: values.scope, expiresInDays: values.expiresInDays });
    } catch (error) {
      // On the field the server names, or above the button.
      showServerError(form, error);
    }
  });

  return (
    <form
      noValidate
      onSubmit={onSubmit}
      aria-label="Create an API token"
      className="flex flex-col gap-4 rounded-lg border border-line bg-white/60 p-4"
    >
      <h3 className="font-semibold">Create a token</h3>
      <Field label="Name" hint="What it is for, so you know which to revoke." error={errors.name?.message}>
        {(control) => (
          <Input
            {...control}
            {...form.register('name')}
            maxLength={80}
            placeholder="Stock script"
            autoComplete="off"
          />
        )}
      </Field>
      <fieldset className="flex flex-col gap-2">
        <legend className="text-sm font-semibold text-ink">Access</legend>
        <div className="flex flex-col gap-2 sm:flex-row sm:gap-6">
          {API_TOKEN_SCOPES.map((scope) => (
            <label key={scope} className="flex min-h-11 items-center gap-2 text-ink-soft">
              <input type="radio" value={scope} {...form.register('scope')} className="size-4 accent-brand" />
              {API_TOKEN_SCOPE_LABELS[scope]}
            </label>
          ))}
        </div>
        {errors.scope ? <p className="text-sm font-medium text-destructive">{errors.scope.message}</p> : null}
      </fieldset>
      <Field label="Expires after" error={errors.expiresInDays?.message}>
        {(control) => (
          <select
            {...control}
            {...form.register('expiresInDays', { valueAsNumber: true })}
            className={cn(fieldClasses, 'h-11 sm:max-w-xs')}
          >
            {API_TOKEN_LIFETIMES_DAYS.map((days) => (
              <option key={days} value={days}>
                {days === 365 ? '1 year' : `${days} days`}
              </option>
            ))}
          </select>
        )}
      </Field>
      {problem ? (
        <Alert tone="error" data-testid="form-error">
          {problem}
        </Alert>
      ) : null}
      <SubmitButton pending={isSubmitting} pendingLabel="Creating…" className="sm:w-auto sm:self-start">
        Create token
      </SubmitButton>
      <p className="text-xs text-ink-muted">You can have up to {API_TOKEN_MAX_LIVE} active tokens.</p>
    </form>
  );
}

function NewToken({ token, onDone }: { token: CreatedApiToken; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(token.token);
      setCopied(true);
    } catch {
      notify.error('Could not copy the token: select it and copy it yourself.');
    }
  };
  return (
    <Alert tone="success" title={`Your new token "${token.name}"`} data-testid="new-token">
      <p>Copy it now and keep it somewhere safe: it will not be shown again.</p>
      <div className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-center">
        <code
          data-testid="new-token-value"
          className="block min-w-0 flex-1 break-all rounded-md border border-line bg-white px-3 py-2 font-mono text-sm text-ink"
        >
          {token.token}
        </code>
        <Button type="button" variant="outline" onClick={copy}>
          {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <Button type="button" variant="link" className="mt-2 h-auto px-0" onClick={onDone}>
        I have copied it
      </Button>
    </Alert>
  );
}

const STATUS_CLASSES: Record<ApiToken['status'], string> = {
  active: 'bg-moss-soft text-moss',
  expired: 'bg-paper-deep text-ink-muted',
  revoked: 'bg-destructive/10 text-destructive',
};

function TokenList({ tokens }: { tokens: ApiToken[] }) {
  if (!tokens.length) {
    return <p className="text-sm text-ink-muted">You have no tokens yet.</p>;
  }
  return (
    <ul className="flex flex-col divide-y divide-line" aria-label="Your tokens">
      {tokens.map((token) => (
        <TokenRow key={token.id} token={token} />
      ))}
    </ul>
  );
}

function TokenRow({ token }: { token: ApiToken }) {
  const revoke = useRevokeApiToken();
  const [confirming, setConfirming] = useState(false);

  const onRevoke = async () => {
    try {
      await revoke.mutateAsync({ id: token.id });
      notify.success(`Revoked "${token.name}": it no longer works.`);
      setConfirming(false);
    } catch (error) {
      notify.error(apiErrorMessage(error));
    }
  };

  return (
    <li
      className="flex flex-col gap-3 py-4 sm:flex-row sm:items-start sm:justify-between"
      data-testid="token-row"
    >
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2">
          <span className="break-words font-semibold">{token.name}</span>
          <span
            className={cn('rounded-full px-2.5 py-0.5 text-xs font-semibold', STATUS_CLASSES[token.status])}
          >
            {token.status === 'active' ? 'Active' : token.status === 'expired' ? 'Expired' : 'Revoked'}
          </span>
        </p>
        <p className="mt-1 text-sm text-ink-soft">
          <code className="font-mono">{token.prefix}…</code> · {API_TOKEN_SCOPE_LABELS[token.scope]}
        </p>
        <p className="mt-1 text-xs text-ink-muted">
          Created {dateFormat.format(new Date(token.createdAt))} ·{' '}
          {token.status === 'revoked' && token.revokedAt
            ? `revoked ${dateFormat.format(new Date(token.revokedAt))}`
            : `${token.status === 'expired' ? 'expired' : 'expires'} ${dateFormat.format(new Date(token.expiresAt))}`}{' '}
          · last used {token.lastUsedAt ? dateTimeFormat.format(new Date(token.lastUsedAt)) : 'never'}
        </p>
      </div>
      {token.status === 'active' ? (
        confirming ? (
          <div className="flex shrink-0 flex-wrap items-center gap-2">
            <span className="text-sm text-ink-soft">Revoke it?</span>
            <Button
              type="button"
              variant="destructive"
              size="sm"
              disabled={revoke.isPending}
              onClick={onRevoke}
            >
              {revoke.isPending ? <Loader2 aria-hidden="true" className="motion-safe:animate-spin" /> : null}
              Revoke
            </Button>
            <Button type="button" variant="ghost" size="sm" onClick={() => setConfirming(false)}>
              Keep
            </Button>
          </div>
        ) : (
          <Button
            type="button"
            variant="outline"
            size="sm"
            className="shrink-0"
            aria-label={`Revoke ${token.name}`}
            onClick={() => setConfirming(true)}
          >
            Revoke
          </Button>
        )
      ) : null}
    </li>
  );
}
