import { useSearchParams } from 'react-router';
import { errorText } from '../../api/client';
import { Chip } from '../../shared/chip';
import { Loading } from '../../shared/loading';
import { useDocumentTitle } from '../../shared/use-document-title';
import { useCommunitySearch } from './community-api';
import { CommunityCard } from './community-card';
import { memberCount } from './community-text';

/** /communities/search[?c=category]: category chips and the matching public communities. */
export function CommunitySearchPage() {
  useDocumentTitle('Community Search');
  const [params, setParams] = useSearchParams();
  const selected = params.get('c') || null;
  const search = useCommunitySearch(selected);

  const choose = (category: string, inFirstGroup: boolean) => {
    // Spec §2: only the first group's selected chip acts as "clear"; elsewhere it stays selected.
    const clear = inFirstGroup && category === selected;
    setParams(clear ? {} : { c: category });
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

  const { categories, communities } = search.data;
  return (
    <section className="page" aria-busy={search.isFetching}>
      <h1 className="visually-hidden">Find communities</h1>
      {categories.map((group, index) => {
        const heading = `${group.name ?? 'Community'} Categories`;
        return (
          <section key={heading} className="chip-group" aria-label={heading}>
            <h2 className="section-heading">{heading}</h2>
            <div className="chips">
              {group.categories.map((category) => (
                <Chip
                  key={category}
                  selected={category === selected}
                  onClick={() => choose(category, index === 0)}
                >
                  {category}
                </Chip>
              ))}
            </div>
          </section>
        );
      })}
      <h2 className="list-heading">{`${selected ?? 'Popular'} Communities:`}</h2>
      {communities.length === 0 ? (
        <p className="empty">No public communities match this filter.</p>
      ) : (
        <ul className="card-grid">
          {communities.map((c) => (
            <CommunityCard key={c.endpoint} endpoint={c.endpoint} name={c.name} image={c.image}>
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
