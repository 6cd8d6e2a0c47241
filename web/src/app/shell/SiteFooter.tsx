import { PRODUCT } from '@reshelf/contracts';
import { Link } from 'react-router-dom';
import { Wordmark } from '../../components/Wordmark.tsx';

type FooterLink = { to: string; label: string };

const FOOTER_GROUPS: { title: string; links: FooterLink[] }[] = [
  {
    title: 'Discover',
    links: [
      { to: '/categories', label: 'Categories' },
      { to: '/trending', label: 'Trending' },
      { to: '/staff-picks', label: 'Staff picks' },
      { to: '/recently-added', label: 'Recently added' },
      { to: '/discover-sellers', label: 'Sellers' },
      { to: '/charity', label: 'Charities' },
    ],
  },
  {
    title: PRODUCT.name,
    links: [
      { to: '/pages/about-us', label: 'About us' },
      { to: '/pages/sustainability', label: 'Sustainability' },
      { to: PRODUCT.appPath, label: 'The app' },
      { to: '/pages/contact', label: 'Contact us' },
      { to: '/help-centre', label: 'Help centre' },
      { to: '/help-centre/faq', label: 'FAQ' },
    ],
  },
  {
    title: 'Legal',
    links: [
      { to: '/terms', label: 'Terms and conditions' },
      { to: '/pages/privacy-policy', label: 'Privacy policy' },
      { to: '/pages/cookie-policy', label: 'Cookie policy' },
      { to: '/pages/accessibility-policy', label: 'Accessibility' },
    ],
  },
];

export function SiteFooter() {
  const year = new Date().getFullYear();
  return (
    <footer className="border-t border-line bg-ink text-paper/80">
      <div className="mx-auto grid w-full max-w-6xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-[1fr_2fr] lg:px-8">
        <div className="max-w-sm">
          <Wordmark inverted />
          <p className="mt-4 text-sm leading-relaxed">
            Pre-loved books, passed on. Buy and sell second-hand books across the UK, with buyer protection on
            every order.
          </p>
        </div>

        <nav aria-label="Footer" className="grid grid-cols-2 gap-8 sm:grid-cols-3">
          {FOOTER_GROUPS.map((group) => (
            <div key={group.title}>
              <h2 className="font-sans text-sm font-semibold uppercase tracking-wider text-paper">
                {group.title}
              </h2>
              <ul className="mt-4 flex flex-col gap-1">
                {group.links.map((link) => (
                  <li key={link.to}>
                    <Link
                      to={link.to}
                      className="-mx-1 inline-block rounded px-1 py-1.5 text-sm text-paper/80 underline-offset-4 transition-colors hover:text-paper hover:underline focus-visible:outline-accent"
                    >
                      {link.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
      </div>

      <div className="border-t border-paper/10">
        <p className="mx-auto w-full max-w-6xl px-4 py-5 text-xs text-paper/70 sm:px-6 lg:px-8">
          © {year} {PRODUCT.name}. Prices are shown in pounds sterling (GBP).
        </p>
      </div>
    </footer>
  );
}
