import { Link } from 'react-router-dom';

/** "by A, B": each author a link to a search for their name (the listing page, the book page). */
export function AuthorLinks({ authors }: { authors: readonly string[] }) {
  return (
    <>
      by{' '}
      {authors.map((author, index) => (
        <span key={author}>
          {index > 0 ? ', ' : null}
          <Link
            to={`/search?q=${encodeURIComponent(author)}`}
            className="font-medium text-ink underline-offset-4 hover:text-brand hover:underline"
          >
            {author}
          </Link>
        </span>
      ))}
    </>
  );
}
