import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { errorText } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { useSingleFlight } from '../../shared/single-flight';
import { setHost, useHosts } from './host-api';

/** The hosts of a community; admins grant and revoke by username (hosting spec §1, §5). */
export function HostsPanel({ community, admin }: { community: string; admin: boolean }) {
  const hosts = useHosts(community);
  const client = useQueryClient();
  const [username, setUsername] = useState('');
  const sendOnce = useSingleFlight();
  const change = useMutation({
    mutationFn: ({ name, host }: { name: string; host: boolean }) => setHost(community, name, host),
    onSuccess: (answer, { host }) => {
      client.setQueryData(queryKeys.hostHosts(community), answer);
      client.invalidateQueries({ queryKey: queryKeys.hostAudit(community) });
      if (host) setUsername('');
    },
  });
  const add = (e: FormEvent) => {
    e.preventDefault();
    const name = username.trim();
    if (name) sendOnce(() => change.mutateAsync({ name, host: true }));
  };
  return (
    <section className="card host-section" aria-labelledby="hosts-heading">
      <h2 id="hosts-heading">Hosts</h2>
      {hosts.isPending && <p className="note">Loading hosts…</p>}
      {hosts.isError && (
        <p className="form-error" role="alert">
          {errorText(hosts.error)}
        </p>
      )}
      {hosts.data &&
        (hosts.data.hosts.length === 0 ? (
          <p className="empty">No hosts yet{admin ? '' : ': admins run this community'}.</p>
        ) : (
          <ul className="host-people">
            {hosts.data.hosts.map((name) => (
              <li key={name}>
                <span>{name}</span>
                {admin && (
                  <button
                    type="button"
                    className="button-link"
                    disabled={change.isPending}
                    onClick={() => {
                      if (window.confirm(`Remove ${name} as a host of ${community}?`))
                        sendOnce(() => change.mutateAsync({ name, host: false }));
                    }}
                  >
                    Remove<span className="visually-hidden"> {name}</span>
                  </button>
                )}
              </li>
            ))}
          </ul>
        ))}
      {admin ? (
        <form className="host-inline-form" onSubmit={add} aria-label="Add a host">
          <div className="field">
            <label htmlFor="add-host">Username</label>
            <input
              id="add-host"
              type="text"
              value={username}
              autoCapitalize="none"
              spellCheck={false}
              aria-describedby="add-host-message"
              onChange={(e) => setUsername(e.target.value)}
            />
          </div>
          <button
            type="submit"
            className="button button-secondary"
            disabled={change.isPending || !username.trim()}
          >
            Add host
          </button>
        </form>
      ) : (
        <p className="note">Only admins add or remove hosts.</p>
      )}
      <p className="field-message host-problem" id="add-host-message" role="status">
        {change.isError ? errorText(change.error) : ''}
      </p>
    </section>
  );
}
