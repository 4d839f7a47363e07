import { errorText } from '../../api/client';
import { formatWhen } from '../../shared/time-text';
import { useAudit } from './host-api';
import { auditActionText, auditChange } from './host-text';

/** Who did what, when, with old and new values, newest first; 'Older' reads the next page. */
export function AuditLog({ community }: { community: string }) {
  const audit = useAudit(community);
  const entries = audit.data?.pages.flatMap((p) => p.entries) ?? [];
  return (
    <section className="card host-section" aria-labelledby="audit-heading">
      <h2 id="audit-heading">Audit log</h2>
      {audit.isPending && <p className="note">Loading the log…</p>}
      {audit.isError && (
        <p className="form-error" role="alert">
          {errorText(audit.error)}
        </p>
      )}
      {audit.isSuccess && entries.length === 0 && <p className="empty">Nothing has been changed yet.</p>}
      {entries.length > 0 && (
        <ol className="host-audit">
          {entries.map((e) => {
            const changes = auditChange(e.old, e.new, e.action);
            return (
              <li key={e.id}>
                <p>
                  <strong className="host-action">{auditActionText(e.action)}</strong>{' '}
                  <span className="host-target">{e.target}</span>
                </p>
                <p className="note">
                  <time dateTime={e.at}>{formatWhen(e.at, 'MMM d, yyyy, h:mm a')}</time> · by {e.who}
                </p>
                {changes.length > 0 && (
                  <ul className="host-changes">
                    {changes.map((c) => (
                      <li key={c}>{c}</li>
                    ))}
                  </ul>
                )}
              </li>
            );
          })}
        </ol>
      )}
      {audit.hasNextPage && (
        <button
          type="button"
          className="button button-secondary"
          disabled={audit.isFetchingNextPage}
          aria-busy={audit.isFetchingNextPage}
          onClick={() => audit.fetchNextPage()}
        >
          Older
        </button>
      )}
    </section>
  );
}
