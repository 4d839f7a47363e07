import { Link } from 'react-router';
import { useDocumentTitle } from '../shared/use-document-title';

/** Stand-in for the /play area, which is built separately; the router mounts it behind RequireLogin. */
export function PlayPlaceholder() {
  useDocumentTitle('Play');
  return (
    <section className="page page-narrow">
      <h1>Play</h1>
      <div className="card empty-card">
        <p>Games are on their way.</p>
        <Link className="button button-secondary" to="/communities">
          Browse communities
        </Link>
      </div>
    </section>
  );
}
