/**
 * /admin/categories (admins): the category tree (with subcategories) and the genre list, as
 * /categories, the filters and the shelves show them. Add, rename (name, slug, description,
 * parent), move up or down among siblings, and retire one that no listing uses. A moderator's
 * attempt is refused by the server ("Access denied: admin role required").
 */
import { countOf, slugify } from '@reshelf/contracts';
import { ArrowDown, ArrowUp, Pencil, Plus, Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router-dom';
import { AdminPageFrame, EmptyState } from '../../components/staff/AdminPageFrame.tsx';
import { Button } from '../../components/ui/button.tsx';
import { fieldClasses, Input, Label, Textarea } from '../../components/ui/input.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { QueryView } from '../../kit/QueryView.tsx';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { type RouterOutputs, trpc } from '../../lib/trpc.ts';
import {
  useAddTaxonomyNode,
  useMoveTaxonomyNode,
  useRetireTaxonomyNode,
  useUpdateTaxonomyNode,
} from './hooks.ts';

type Kind = 'category' | 'genre';
type Node = RouterOutputs['catalogue']['taxonomy']['staff']['trees']['categories'][number];

const failed = (title: string) => (error: unknown) =>
  toast({ variant: 'destructive', title, description: apiErrorMessage(error) });

/** Categories in tree order (each parent followed by its children), with their depth. */
function inTreeOrder(nodes: Node[]): { node: Node; depth: number; first: boolean; last: boolean }[] {
  const children = new Map<string | null, Node[]>();
  for (const node of nodes) children.set(node.parentId, [...(children.get(node.parentId) ?? []), node]);
  const out: { node: Node; depth: number; first: boolean; last: boolean }[] = [];
  const walk = (parentId: string | null, depth: number) => {
    const siblings = children.get(parentId) ?? [];
    siblings.forEach((node, index) => {
      out.push({ node, depth, first: index === 0, last: index === siblings.length - 1 });
      walk(node.id, depth + 1);
    });
  };
  walk(null, 0);
  return out;
}

export function CategoriesPage() {
  const trees = trpc.catalogue.taxonomy.staff.trees.useQuery();
  return (
    <AdminPageFrame
      title="Categories"
      description="The category and genre trees buyers browse by. Changes show on /categories and in the filters at once. Only admins can change them."
      testId="categories-page"
      actions={
        <Button asChild variant="outline">
          <Link to="/categories">See the public page</Link>
        </Button>
      }
    >
      <QueryView query={trees} pending="Loading categories…">
        {(data) => (
          <>
            <TreeSection kind="category" title="Categories" nodes={data.categories} />
            <TreeSection kind="genre" title="Genres" nodes={data.genres} />
          </>
        )}
      </QueryView>
    </AdminPageFrame>
  );
}

function TreeSection({ kind, title, nodes }: { kind: Kind; title: string; nodes: Node[] }) {
  const [editing, setEditing] = useState<string | null>(null);
  const move = useMoveTaxonomyNode({ onError: failed('Order not saved') });
  const retire = useRetireTaxonomyNode({
    onSuccess: () => toast({ title: kind === 'category' ? 'Category retired' : 'Genre retired' }),
    onError: failed('Not retired'),
  });
  const rows =
    kind === 'category'
      ? inTreeOrder(nodes)
      : nodes.map((node, index) => ({
          node,
          depth: 0,
          first: index === 0,
          last: index === nodes.length - 1,
        }));
  const busy = move.isPending || retire.isPending;
  const headingId = `${kind}-tree-title`;

  return (
    <section className="flex flex-col gap-3" aria-labelledby={headingId}>
      <h2 id={headingId} className="text-2xl font-semibold">
        {title}
      </h2>
      <NodeForm kind={kind} categories={kind === 'category' ? nodes : []} />
      {rows.length === 0 ? (
        <EmptyState>No {title.toLowerCase()} yet.</EmptyState>
      ) : (
        <ul className="flex flex-col gap-2" data-testid={`${kind}-tree`} aria-busy={busy}>
          {rows.map(({ node, depth, first, last }) => (
            <li
              key={node.id}
              data-testid="taxonomy-node"
              data-slug={node.slug}
              className="rounded-xl border border-line bg-paper p-3"
              style={{ marginLeft: `${Math.min(depth, 4) * 1.5}rem` }}
            >
              {editing === node.id ? (
                <NodeForm
                  kind={kind}
                  node={node}
                  categories={kind === 'category' ? nodes : []}
                  onDone={() => setEditing(null)}
                  onCancel={() => setEditing(null)}
                />
              ) : (
                <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
                  <div className="min-w-0 flex-1">
                    <p className="font-semibold">
                      {node.name} <span className="font-mono text-xs text-ink-muted">/{node.slug}</span>
                    </p>
                    {node.description ? <p className="text-sm text-ink-soft">{node.description}</p> : null}
                    <p className="text-xs text-ink-muted">{countOf(node.listings, 'listing', 'listings')}</p>
                  </div>
                  <div className="flex gap-1">
                    <Button
                      size="icon"
                      variant="outline"
                      aria-label={`Edit ${node.name}`}
                      onClick={() => setEditing(node.id)}
                    >
                      <Pencil aria-hidden="true" />
                    </Button>
                    <Button
                      size="icon"
                      variant="outline"
                      aria-label={`Move ${node.name} up`}
                      disabled={first || busy}
                      onClick={() => move.mutate({ kind, id: node.id, direction: 'up' })}
                    >
                      <ArrowUp aria-hidden="true" />
                    </Button>
                    <Button
                      size="icon"
                      variant="outline"
                      aria-label={`Move ${node.name} down`}
                      disabled={last || busy}
                      onClick={() => move.mutate({ kind, id: node.id, direction: 'down' })}
                    >
                      <ArrowDown aria-hidden="true" />
                    </Button>
                    <Button
                      size="icon"
                      variant="outline"
                      aria-label={`Retire ${node.name}`}
                      title={node.listings > 0 ? 'Only one without listings can be retired' : undefined}
                      disabled={node.listings > 0 || busy}
                      onClick={() => retire.mutate({ kind, id: node.id })}
                    >
                      <Trash2 aria-hidden="true" />
                    </Button>
                  </div>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Adds a node (no `node`) or edits one; the slug follows the name until someone types one. */
function NodeForm({
  kind,
  node,
  categories,
  onDone,
  onCancel,
}: {
  kind: Kind;
  node?: Node;
  categories: Node[];
  onDone?: () => void;
  onCancel?: () => void;
}) {
  const [name, setName] = useState(node?.name ?? '');
  const [slug, setSlug] = useState(node?.slug ?? '');
  const [slugTouched, setSlugTouched] = useState(Boolean(node));
  const [description, setDescription] = useState(node?.description ?? '');
  const [parentId, setParentId] = useState(node?.parentId ?? '');
  const label = kind === 'category' ? 'category' : 'genre';
  const add = useAddTaxonomyNode({
    onSuccess: () => {
      toast({ title: `${name.trim()} added` });
      setName('');
      setSlug('');
      setSlugTouched(false);
      setDescription('');
      setParentId('');
      onDone?.();
    },
    onError: failed(`The ${label} was not added`),
  });
  const update = useUpdateTaxonomyNode({
    onSuccess: () => {
      toast({ title: `${name.trim()} saved` });
      onDone?.();
    },
    onError: failed(`The ${label} was not saved`),
  });
  const prefix = `${kind}-${node?.id ?? 'new'}`;

  function submit(event: FormEvent) {
    event.preventDefault();
    const fields = { kind, name, slug, description, parentId: parentId || null };
    if (node) update.mutate({ ...fields, id: node.id });
    else add.mutate(fields);
  }

  const form = (
    <form
      className="grid gap-3 sm:grid-cols-2"
      onSubmit={submit}
      aria-label={node ? `Edit ${node.name}` : `Add a ${label}`}
    >
      <div className="flex flex-col gap-1">
        <Label htmlFor={`${prefix}-name`}>Name</Label>
        <Input
          id={`${prefix}-name`}
          value={name}
          required
          maxLength={80}
          onChange={(event) => {
            setName(event.target.value);
            if (!slugTouched) setSlug(slugify(event.target.value));
          }}
        />
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor={`${prefix}-slug`}>Slug</Label>
        <Input
          id={`${prefix}-slug`}
          value={slug}
          required
          maxLength={80}
          onChange={(event) => {
            setSlug(event.target.value);
            setSlugTouched(true);
          }}
        />
      </div>
      <div className="flex flex-col gap-1 sm:col-span-2">
        <Label htmlFor={`${prefix}-description`}>Description (optional)</Label>
        <Textarea
          id={`${prefix}-description`}
          value={description}
          maxLength={500}
          className="min-h-16"
          onChange={(event) => setDescription(event.target.value)}
        />
      </div>
      {kind === 'category' ? (
        <div className="flex flex-col gap-1">
          <Label htmlFor={`${prefix}-parent`}>Parent</Label>
          <select
            id={`${prefix}-parent`}
            value={parentId}
            onChange={(event) => setParentId(event.target.value)}
            className={`${fieldClasses} h-11`}
          >
            <option value="">None (top level)</option>
            {categories
              .filter((category) => category.id !== node?.id)
              .map((category) => (
                <option key={category.id} value={category.id}>
                  {category.name}
                </option>
              ))}
          </select>
        </div>
      ) : null}
      <div className="flex items-end gap-2">
        <Button type="submit" disabled={add.isPending || update.isPending}>
          {node ? (
            'Save'
          ) : (
            <>
              <Plus aria-hidden="true" /> Add {label}
            </>
          )}
        </Button>
        {onCancel ? (
          <Button type="button" variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
      </div>
    </form>
  );
  if (node) return form;
  return (
    <details className="rounded-xl border border-line bg-paper p-4">
      <summary className="cursor-pointer font-semibold">Add a {label}</summary>
      <div className="mt-3">{form}</div>
    </details>
  );
}
