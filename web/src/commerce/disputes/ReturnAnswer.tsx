/**
 * The seller's answer to a return, the same for a charity (its dashboard) and a private seller
 * who accepts returns (their sale page), as both run the one return flow (decision 0038):
 * accept — a private seller says where to post it, a charity's own address is known — or decline
 * with a reason the buyer reads, and, once accepted, "the book is back", which refunds the buyer.
 * The server checks everything again; the checks here only save a round trip.
 */
import { declineReasonSchema, type ReturnRequest } from '@reshelf/contracts';
import { type FormEvent, useId, useState } from 'react';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Textarea } from '../../components/ui/input.tsx';
import { apiErrorMessage } from '../../lib/api-errors.ts';

/** What this needs of a mutation (tRPC's useMutation result). */
interface Mutation<Input> {
  mutate: (input: Input) => void;
  isPending: boolean;
  error: unknown;
}

/** A private seller gives the address to post to when accepting; a charity's is on file. */
type Acceptance =
  | { asksAddress: true; accept: Mutation<{ returnId: string; address: string }> }
  | { asksAddress: false; accept: Mutation<{ returnId: string }> };

export type ReturnAnswerProps = Acceptance & {
  item: Pick<ReturnRequest, 'id' | 'status'>;
  decline: Mutation<{ returnId: string; reason: string }>;
  receive: Mutation<{ returnId: string }>;
  size?: 'sm' | 'default';
};

/** The shortest address a buyer could post a book to (the server's rule). */
const ADDRESS_MIN = 5;

export function ReturnAnswer(props: ReturnAnswerProps) {
  const { item, accept, decline, receive, size = 'default' } = props;
  const [step, setStep] = useState<null | 'accept' | 'decline'>(null);
  const [text, setText] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const id = useId();
  const error = accept.error ?? decline.error ?? receive.error;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (step === 'accept') {
      if (text.trim().length < ADDRESS_MIN)
        return setInvalid('Give the address the buyer should post the book to');
      setInvalid(null);
      if (props.asksAddress) props.accept.mutate({ returnId: item.id, address: text });
    } else {
      const parsed = declineReasonSchema.safeParse(text);
      if (!parsed.success) return setInvalid(parsed.error.issues[0]?.message ?? 'Give a reason');
      setInvalid(null);
      decline.mutate({ returnId: item.id, reason: parsed.data });
    }
  };
  return (
    <>
      {item.status === 'requested' && step === null ? (
        <div className="mt-3 flex flex-wrap gap-2">
          <Button
            size={size}
            variant="brand"
            disabled={accept.isPending}
            onClick={() =>
              props.asksAddress ? setStep('accept') : props.accept.mutate({ returnId: item.id })
            }
          >
            Accept the return
          </Button>
          <Button size={size} variant="outline" onClick={() => setStep('decline')}>
            Decline
          </Button>
        </div>
      ) : null}
      {item.status === 'requested' && step !== null ? (
        <form className="mt-3 flex flex-col gap-2" onSubmit={submit} noValidate>
          <label htmlFor={`${id}-text`} className="text-sm font-semibold">
            {step === 'accept'
              ? 'Where should the buyer post it? (your name and address)'
              : 'Why are you declining? The buyer will read this.'}
          </label>
          <Textarea
            id={`${id}-text`}
            value={text}
            maxLength={step === 'accept' ? 300 : 1000}
            aria-invalid={Boolean(invalid)}
            aria-describedby={invalid ? `${id}-invalid` : undefined}
            onChange={(event) => setText(event.target.value)}
          />
          {invalid ? (
            <p id={`${id}-invalid`} className="text-sm font-medium text-destructive">
              {invalid}
            </p>
          ) : null}
          <div className="flex gap-2">
            <Button
              size={size}
              type="submit"
              variant={step === 'accept' ? 'brand' : 'destructive'}
              disabled={accept.isPending || decline.isPending}
            >
              {step === 'accept' ? 'Accept and send the address' : 'Decline the return'}
            </Button>
            <Button
              size={size}
              type="button"
              variant="ghost"
              onClick={() => {
                setStep(null);
                setInvalid(null);
              }}
            >
              Cancel
            </Button>
          </div>
        </form>
      ) : null}
      {item.status === 'accepted' ? (
        <Button
          size={size}
          variant="brand"
          className="mt-3"
          disabled={receive.isPending}
          onClick={() => receive.mutate({ returnId: item.id })}
        >
          The book is back: refund the buyer
        </Button>
      ) : null}
      {error ? (
        <Alert tone="error" className="mt-3">
          {apiErrorMessage(error)}
        </Alert>
      ) : null}
    </>
  );
}
