import { COMMUNITY_SEARCH_MAX, httpRoutes } from '@hunch/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type FormEvent, useCallback, useEffect, useId, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { callApi, errorText } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { whenIdle } from '../../api/when-idle';
import { Chip } from '../../shared/chip';
import { Loading } from '../../shared/loading';
import { useDocumentTitle } from '../../shared/use-document-title';
import { useCommunitySearch } from './community-api';
import { CommunityCard, releaseListImages } from './community-card';
import { memberCount } from './community-text';

/** The first card's image is waited for at most this long before the others are asked for. */
const FIRST_IMAGE_ALONE_MS = 3000;

/** Typing pauses this long before the search runs (each keystroke would be a request). */
const SEARCH_DEBOUNCE_MS = 300;

/** The communities whose name holds the words of `q` (our addition beside the spec's c). */
function useNameSearch(category: string | null, q: string) {
  return useQuery({
    queryKey: [...queryKeys.communitySearch(category), q] as const,
    queryFn: () => callApi(httpRoutes.communitySearch, { query: { c: category ?? undefined, q } }),
    enabled: q !== '',
    placeholderData: keepPreviousData,
  });
}

/** The name search box: the address's q, written there after a pause in typing or on Enter. */
function NameSearch({ q, onSearch }: { q: string; onSearch: (q: string) => void }) {
  const id = useId();
  const [text, setText] = useState(q);
  // The latest callback, so a parent's re-render does not restart the pause.
  const search = useRef(onSearch);
  search.current = onSearch;
  // The address changed (back button, a link): the box follows it.
  useEffect(() => setText(q), [q]);
  useEffect(() => {
    const wanted = text.trim();
    if (wanted === q) return;
    const timer = setTimeout(() => search.current(wanted), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, q]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSearch(text.trim());
  };
  return (
    <search>
      <form className="field name-search" onSubmit={submit}>
        <label htmlFor={id}>Search communities by name</label>
        <input
          id={id}
          type="search"
          value={text}
          maxLength={COMMUNITY_SEARCH_MAX}
          placeholder="e.g. book club"
          autoComplete="off"
          enterKeyHint="search"
          onChange={(e) => setText(e.target.value)}
        />
      </form>
    </search>
  );
}

/** /communities/search[?c=category][&q=name]: category chips, a name search, the matching communities. */
export function CommunitySearchPage() {
  useDocumentTitle('Community Search');
  const [params, setParams] = useSearchParams();
  const typed = params.get('c') || null;
  const q = (params.get('q') ?? '').trim();
  const search = useCommunitySearch(typed);
  // The server matches a category in any case; the chip and the heading show its own spelling.
  const selected =
    search.data?.categories
      .flatMap((g) => g.categories)
      .find((c) => c.toLowerCase() === typed?.toLowerCase()) ?? typed;
  const named = useNameSearch(typed, q);
  // The first card's image is the page's largest paint: the others wait until it is in and shown
  // (or a few seconds), so they do not share the line with it (decision 031).
  const firstImageDone = useCallback(() => whenIdle(releaseListImages), []);
  useEffect(() => {
    const timer = window.setTimeout(releaseListImages, FIRST_IMAGE_ALONE_MS);
    return () => window.clearTimeout(timer);
  }, []);

  const choose = (category: string) => {
    // A selected chip, in any group, clears the filter when clicked again (issue 27 extends the
    // spec's first group to all of them); the name search stays.
    const next = new URLSearchParams(window.location.search);
    if (category === selected) next.delete('c');
    else next.set('c', category);
    setParams(next);
  };
  const onSearch = (text: string) => {
    const next = new URLSearchParams(window.location.search);
    if (text) next.set('q', text);
    else next.delete('q');
    setParams(next, { replace: true });
  };

  if (search.isPending) return <Loading label="Loading communities…" />;
  if (search.isError) {
    return (
      <section className="page">
        <p className="form-error" role="alert">
          {errorText(search.error)}
        </p>
      </section>
    );
  }

  const { categories } = search.data;
  const communities = q ? (named.data?.communities ?? []) : search.data.communities;
  const busy = search.isFetching || (q !== '' && named.isFetching);
  const listHeading = q
    ? `${selected ? `${selected} ` : ''}Communities matching “${q}”:`
    : `${selected ?? 'Popular'} Communities:`;
  return (
    <section className="page" aria-busy={busy}>
      <h1 className="visually-hidden">Find communities</h1>
      <NameSearch q={q} onSearch={onSearch} />
      {categories.map((group) => {
        const heading = `${group.name ?? 'Community'} Categories`;
        return (
          <section key={heading} className="chip-group" aria-label={heading}>
            <h2 className="section-heading">{heading}</h2>
            <div className="chips">
              {group.categories.map((category) => (
                <Chip key={category} selected={category === selected} onClick={() => choose(category)}>
                  {category}
                </Chip>
              ))}
            </div>
          </section>
        );
      })}
      <h2 className="list-heading" aria-live="polite">
        {listHeading}
      </h2>
      {named.isError && q ? (
        <p className="form-error" role="alert">
          {errorText(named.error)}
        </p>
      ) : q && named.isPending ? (
        <Loading label="Searching…" />
      ) : communities.length === 0 ? (
        <p className="empty">No public communities match this filter.</p>
      ) : (
        <ul className="card-grid">
          {communities.map((c, k) => (
            <CommunityCard
              key={c.endpoint}
              endpoint={c.endpoint}
              name={c.name}
              image={c.image}
              priority={k === 0}
              holdImage={k > 0}
              onImageDone={k === 0 ? firstImageDone : undefined}
            >
              <span className="community-card-meta">{memberCount(c.members)} members</span>
              {c.categories.length > 0 && (
                <span className="community-card-tags">{c.categories.join(' · ')}</span>
              )}
            </CommunityCard>
          ))}
        </ul>
      )}
    </section>
  );
}
