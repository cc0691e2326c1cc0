import { useState, type FormEvent } from 'react';
import { useLocation, useSearch } from 'wouter';
import { Search } from 'lucide-react';
import { cn } from '#client/lib/cn.ts';
import { DESKTOP_QUERY, useMediaQuery } from '#client/lib/use-media-query.ts';

/** The search the page shows: /videos?q=, nothing on any other page. */
function queryOf(location: string, search: string): string {
  if (location !== '/videos') return '';
  return new URLSearchParams(search).get('q') ?? '';
}

// spec 2: a blank query goes nowhere; anything else opens /videos?q=...
export function SearchBox({ className }: { className?: string }) {
  const [location, navigate] = useLocation();
  // Read from window.location where there is one: wouter's search is decodeURI'd, which turns '%25' into '%'.
  const search = useSearch();
  const urlQuery = queryOf(location, typeof window === 'undefined' ? search : window.location.search);
  const [text, setText] = useState(urlQuery);
  // The box shows the URL's query, opened directly or reached by back/forward; typing only
  // changes the box until the next navigation.
  const [shownQuery, setShownQuery] = useState(urlQuery);
  if (urlQuery !== shownQuery) {
    setShownQuery(urlQuery);
    setText(urlQuery);
  }
  const isDesktop = useMediaQuery(DESKTOP_QUERY);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const query = text.trim();
    if (!query) return;
    navigate(`/videos?q=${encodeURIComponent(query)}`);
  };

  return (
    // action and name make the box work without scripts at all (a plain GET to /videos?q=).
    <form role="search" action="/videos" method="get" onSubmit={submit} className={cn('relative', className)}>
      <label htmlFor="site-search" className="sr-only">
        Search videos
      </label>
      <input
        id="site-search"
        name="q"
        type="search"
        value={text}
        onChange={(event) => setText(event.target.value)}
        placeholder={isDesktop ? 'Search videos and products...' : 'Search videos...'}
        enterKeyHint="search"
        autoComplete="off"
        className={cn(
          'h-10 w-full rounded-full border border-input bg-card pr-11 pl-4 text-sm shadow-xs transition-colors',
          'placeholder:text-muted-foreground/80 focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-offset-0',
          '[&::-webkit-search-cancel-button]:hidden',
        )}
      />
      <button
        type="submit"
        aria-label="Search"
        className="absolute top-1 right-1 inline-flex size-8 cursor-pointer items-center justify-center rounded-full text-muted-foreground transition-colors hover:bg-muted hover:text-foreground"
      >
        <Search aria-hidden className="size-4" />
      </button>
    </form>
  );
}
