import type { HostedCommunity, Season } from '@hunch/contract';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { communityImageUrl } from '../../api/asset-urls';
import { SafeImg } from '../../shared/safe-img';
import { useDocumentTitle } from '../../shared/use-document-title';
import { COMMUNITY_FIELDS } from './error-paths';
import { CheckField, ProblemsProvider, TextField } from './fields';
import { GameStateLine } from './game-state-line';
import { hostCommunityPath, hostGamePath } from './host-paths';
import { useHostContext } from './host-shell';
import { waitingText } from './host-text';
import { SaveBar, useSeasonSave } from './save-bar';

function CommunityRow({ c }: { c: HostedCommunity }) {
  const next = c.next_game;
  // The next game's line names its own outcomes to enter: the community's count only when it says more.
  const waiting =
    c.waiting.outcomes > (next?.state === 'results' ? next.pending : 0) ? waitingText(c.waiting) : null;
  return (
    <li className="card host-row">
      <SafeImg className="host-row-image" src={communityImageUrl(c.image)} alt="" loading="lazy" />
      <div className="host-row-body">
        <h2 className="host-row-title">
          <Link to={hostCommunityPath(c.endpoint)}>{c.name}</Link>
        </h2>
        <p className="note">
          /{c.endpoint} · {c.kind === 'geo' ? 'geo-group' : c.listed ? 'listed in search' : 'unlisted'}
        </p>
        {next ? (
          <p>
            Next: <Link to={hostGamePath(c.endpoint, next.series, next.uuid)}>{next.name}</Link>{' '}
            <GameStateLine state={next.state} schedule={next} pending={next.pending} />
          </p>
        ) : (
          <p className="note">No game scheduled.</p>
        )}
        {waiting && <p className="host-waiting">{waiting}</p>}
      </div>
    </li>
  );
}

/** Admins create a community by importing a document that names a new endpoint. */
function NewCommunityForm({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const [community, setCommunity] = useState<Season['community']>({
    endpoint: '',
    name: '',
    description: '',
    listed: true,
    categories: [],
  });
  const save = useSeasonSave(COMMUNITY_FIELDS, () => navigate(hostCommunityPath(community.endpoint)));
  const set = (patch: Partial<Season['community']>) => setCommunity((c) => ({ ...c, ...patch }));
  return (
    <ProblemsProvider value={save.placed.byField}>
      <form className="card form host-form" aria-labelledby="new-community-heading" noValidate>
        <h2 id="new-community-heading">New community</h2>
        <TextField
          path="community.endpoint"
          label="Endpoint"
          hint="Its address: 3 to 40 of a-z, 0-9 and -. It cannot change later."
          value={community.endpoint}
          onChange={(endpoint) => set({ endpoint: endpoint.toLowerCase() })}
        />
        <TextField
          path="community.name"
          label="Name"
          value={community.name}
          onChange={(name) => set({ name })}
        />
        <TextField
          path="community.description"
          label="Description"
          multiline
          value={community.description ?? ''}
          onChange={(description) => set({ description })}
        />
        <CheckField
          path="community.listed"
          label="Listed in community search"
          checked={community.listed ?? true}
          onChange={(listed) => set({ listed })}
        />
        <SaveBar
          save={save}
          // A community not made yet: refused (412) when its endpoint is taken meanwhile.
          base={{ doc: { community, series: [] }, version: null }}
          build={(doc) => doc}
          part={(doc) => doc.community}
          saveLabel="Create community"
        />
        <button type="button" className="button-link" onClick={onClose}>
          Cancel
        </button>
      </form>
    </ProblemsProvider>
  );
}

/** /host: the communities the user hosts (admins: all), each with its next game and what waits. */
export function HostHomePage() {
  useDocumentTitle('Host');
  const { admin, communities } = useHostContext();
  const [creating, setCreating] = useState(false);
  return (
    <section className="page host-page" aria-labelledby="host-heading">
      <div className="host-heading-row">
        <h1 id="host-heading">Host console</h1>
        {admin && !creating && (
          <button type="button" className="button button-secondary" onClick={() => setCreating(true)}>
            New community
          </button>
        )}
      </div>
      <p className="note">
        {admin ? 'As an admin you may run every community.' : 'The communities you host.'} Times are in your
        time zone.
      </p>
      {creating && <NewCommunityForm onClose={() => setCreating(false)} />}
      {communities.length === 0 ? (
        <p className="empty">You host no community yet.</p>
      ) : (
        <ul className="host-list">
          {communities.map((c) => (
            <CommunityRow key={c.endpoint} c={c} />
          ))}
        </ul>
      )}
    </section>
  );
}
