/**
 * /admin/books (staff): the catalogue's book records. Search by title, author or ISBN (kept in
 * the address); correct a book's title, authors, description and category (its listings
 * follow); merge a duplicate into the book to keep — its listings and genres move over, and it
 * is deleted (admins only: the server refuses moderators, shown as a toast).
 */
import { countOf, formatIsbn } from '@reshelf/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { GitMerge, LoaderCircle, Pencil, Search } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useSearchParams } from 'react-router-dom';
import { AdminPageFrame, EmptyState } from '../../components/staff/AdminPageFrame.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../../components/ui/dialog.tsx';
import { fieldClasses, Input, Label, Textarea } from '../../components/ui/input.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { QueryView } from '../../kit/QueryView.tsx';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { type RouterOutputs, trpc } from '../../lib/trpc.ts';
import { useMergeBooks, useUpdateBook } from './hooks.ts';

type Book = RouterOutputs['catalogue']['books']['staff']['search'][number];

const failed = (title: string) => (error: unknown) =>
  toast({ variant: 'destructive', title, description: apiErrorMessage(error) });

export function BooksPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const [draft, setDraft] = useState(q);
  useEffect(() => setDraft(q), [q]);
  const [editing, setEditing] = useState<Book | null>(null);
  const [merging, setMerging] = useState<Book | null>(null);
  const books = trpc.catalogue.books.staff.search.useQuery(
    { ...(q ? { q } : {}), limit: 50 },
    { placeholderData: keepPreviousData },
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    setParams(draft.trim() ? { q: draft.trim() } : {}, { replace: true });
  }

  return (
    <AdminPageFrame
      title="Books"
      description="The catalogue's book records that listings hang off. Correct a record, or merge a duplicate into the one to keep."
      testId="books-page"
    >
      <form
        onSubmit={submit}
        className="grid gap-3 rounded-xl border border-line bg-paper p-4 sm:grid-cols-[1fr_auto] sm:items-end"
      >
        <div className="flex flex-col gap-1">
          <Label htmlFor="books-q">Title, author or ISBN</Label>
          <Input id="books-q" value={draft} onChange={(event) => setDraft(event.target.value)} />
        </div>
        <Button type="submit">
          <Search aria-hidden="true" />
          Search
        </Button>
      </form>

      <QueryView
        query={books}
        pending="Loading books…"
        empty={<EmptyState testId="books-empty">No books match.</EmptyState>}
      >
        {(data) => (
          <ul className="flex flex-col gap-2" data-testid="staff-books">
            {data.map((book) => (
              <li
                key={book.id}
                data-testid="staff-book"
                data-book={book.id}
                className="flex flex-col gap-3 rounded-xl border border-line bg-paper p-4 sm:flex-row sm:items-center"
              >
                <div className="min-w-0 flex-1">
                  <p className="font-semibold" data-testid="book-title">
                    {book.title}
                  </p>
                  <p className="text-sm text-ink-muted">
                    {book.authors.join(', ') || 'No author'} ·{' '}
                    {book.isbn13 ? formatIsbn(book.isbn13) : 'No ISBN'} · {book.category ?? 'No category'} ·{' '}
                    <span data-testid="book-listings">{countOf(book.listings, 'listing', 'listings')}</span>
                  </p>
                </div>
                <div className="flex gap-2">
                  <Button
                    variant="outline"
                    size="sm"
                    aria-label={`Edit ${book.title}`}
                    onClick={() => setEditing(book)}
                  >
                    <Pencil aria-hidden="true" /> Edit
                  </Button>
                  <Button
                    variant="outline"
                    size="sm"
                    aria-label={`Merge ${book.title} into another book`}
                    onClick={() => setMerging(book)}
                  >
                    <GitMerge aria-hidden="true" /> Merge
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </QueryView>
      <Dialog open={editing !== null} onOpenChange={(open) => (open ? undefined : setEditing(null))}>
        {editing ? <EditBook book={editing} onDone={() => setEditing(null)} /> : null}
      </Dialog>
      <Dialog open={merging !== null} onOpenChange={(open) => (open ? undefined : setMerging(null))}>
        {merging ? <MergeBook duplicate={merging} onDone={() => setMerging(null)} /> : null}
      </Dialog>
    </AdminPageFrame>
  );
}

function EditBook({ book, onDone }: { book: Book; onDone: () => void }) {
  const categories = trpc.catalogue.taxonomy.public.categories.useQuery();
  const form = useForm({
    defaultValues: {
      title: book.title,
      authors: book.authors.join('\n'),
      description: book.description ?? '',
      category: book.category ?? '',
    },
  });
  // Controlled: the options arrive after the form, and the select must still show the book's.
  const category = form.watch('category');
  const update = useUpdateBook({
    onSuccess: () => {
      toast({ title: 'Book saved', description: 'Its listings show the change.' });
      onDone();
    },
    onError: failed('Book not saved'),
  });
  const submit = form.handleSubmit(({ title, authors, description, category }) =>
    update.mutate({
      bookId: book.id,
      title,
      authors: authors
        .split('\n')
        .map((name) => name.trim())
        .filter(Boolean),
      description: description.trim() || null,
      category: category || null,
    }),
  );
  return (
    <DialogContent className="max-w-lg" data-testid="book-edit">
      <DialogTitle>Edit book</DialogTitle>
      <DialogDescription className="sr-only">Correct the book's record.</DialogDescription>
      <form onSubmit={submit} className="mt-4 flex flex-col gap-3">
        <div className="flex flex-col gap-1">
          <Label htmlFor="book-title">Title</Label>
          <Input id="book-title" {...form.register('title')} />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="book-authors">Authors (one a line)</Label>
          <Textarea id="book-authors" rows={3} {...form.register('authors')} />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="book-description">Description</Label>
          <Textarea id="book-description" rows={5} {...form.register('description')} />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="book-category">Category</Label>
          <select
            id="book-category"
            value={category}
            onChange={(event) => form.setValue('category', event.target.value)}
            className={`${fieldClasses} h-11`}
          >
            <option value="">No category</option>
            {(categories.data ?? []).map((option) => (
              <option key={option.slug} value={option.slug}>
                {option.name}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : null}
          Save book
        </Button>
      </form>
    </DialogContent>
  );
}

function MergeBook({ duplicate, onDone }: { duplicate: Book; onDone: () => void }) {
  const [draft, setDraft] = useState(duplicate.title);
  const [q, setQ] = useState(duplicate.title);
  const candidates = trpc.catalogue.books.staff.search.useQuery(
    { q, limit: 10 },
    { placeholderData: keepPreviousData },
  );
  const merge = useMergeBooks({
    onSuccess: (result) => {
      toast({
        title: 'Books merged',
        description: `${countOf(result.listingsMoved, 'listing', 'listings')} moved; the duplicate is gone.`,
      });
      onDone();
    },
    onError: failed('Books not merged'),
  });
  const others = (candidates.data ?? []).filter((book) => book.id !== duplicate.id);
  return (
    <DialogContent className="max-w-lg" data-testid="book-merge">
      <DialogTitle>Merge “{duplicate.title}”</DialogTitle>
      <DialogDescription className="mt-2 text-ink-soft">
        Its {countOf(duplicate.listings, 'listing moves', 'listings move')} to the book you keep, which takes
        any ISBN, cover or description it lacks. This record is then deleted.
      </DialogDescription>
      <form
        className="mt-4 flex gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          setQ(draft.trim());
        }}
      >
        <Label htmlFor="merge-q" className="sr-only">
          Find the book to keep
        </Label>
        <Input id="merge-q" value={draft} onChange={(event) => setDraft(event.target.value)} />
        <Button type="submit" variant="outline">
          Find
        </Button>
      </form>
      <ul className="mt-3 flex flex-col gap-2">
        {others.length === 0 ? (
          <li className="text-sm text-ink-muted">
            No other book matches. Search by another title, author or ISBN.
          </li>
        ) : (
          others.map((book) => (
            <li
              key={book.id}
              data-testid="merge-candidate"
              className="flex items-center justify-between gap-2 rounded-lg border border-line p-2"
            >
              <span className="min-w-0 text-sm">
                <span className="font-semibold">{book.title}</span>
                <span className="block text-ink-muted">
                  {book.authors.join(', ')} · {book.isbn13 ? formatIsbn(book.isbn13) : 'No ISBN'} ·{' '}
                  {countOf(book.listings, 'listing', 'listings')}
                </span>
              </span>
              <Button
                size="sm"
                disabled={merge.isPending}
                aria-label={`Keep ${book.title}`}
                onClick={() => merge.mutate({ duplicateId: duplicate.id, keepId: book.id })}
              >
                Keep this one
              </Button>
            </li>
          ))
        )}
      </ul>
    </DialogContent>
  );
}
