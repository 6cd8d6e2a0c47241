import Markdown from 'react-markdown';
import { Link } from 'react-router-dom';
import remarkGfm from 'remark-gfm';
import { TableScroll } from '../../kit/index.ts';

/**
 * Markdown from the database, rendered as React elements: raw HTML in the text is not
 * rendered, so a page can't inject scripts. Links inside the site use the router.
 */
export function MarkdownContent({ children }: { children: string }) {
  return (
    <div className="markdown">
      <Markdown
        remarkPlugins={[remarkGfm]}
        components={{
          a: ({ href = '', children: text }) =>
            href.startsWith('/') ? (
              <Link to={href}>{text}</Link>
            ) : (
              <a href={href} rel="noopener noreferrer external">
                {text}
              </a>
            ),
          table: ({ children: rows }) => (
            <TableScroll label="Table">
              <table>{rows}</table>
            </TableScroll>
          ),
        }}
      >
        {children}
      </Markdown>
    </div>
  );
}
