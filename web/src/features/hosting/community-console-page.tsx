import { useParams } from 'react-router';
import { errorText } from '../../api/client';
import { Loading } from '../../shared/loading';
import { useDocumentTitle } from '../../shared/use-document-title';
import { AuditLog } from './audit-log';
import { CommunitySettings } from './community-settings';
import { useHostGames, useSeason } from './host-api';
import { useHostContext } from './host-shell';
import { HostsPanel } from './hosts-panel';
import { ImportPanel } from './import-panel';
import { SeriesList } from './series-list';

/** /host/{community}: settings, hosts, series, import and export, audit log (hosting spec §2). */
export function CommunityConsolePage() {
  const { community = '' } = useParams();
  const { admin } = useHostContext();
  const season = useSeason(community);
  const games = useHostGames(community);
  useDocumentTitle(season.data ? `Host · ${season.data.doc.community.name}` : 'Host');

  if (season.isPending) return <Loading label="Loading the community…" />;
  if (season.isError) {
    return (
      <section className="page">
        <p className="form-error" role="alert">
          {errorText(season.error)}
        </p>
      </section>
    );
  }
  const { doc, version } = season.data;
  return (
    <article className="page host-page" aria-labelledby="community-heading">
      <header>
        <p className="eyebrow">Community</p>
        <h1 id="community-heading">{doc.community.name}</h1>
        <p className="note">/{doc.community.endpoint}</p>
      </header>
      <div className="host-columns">
        <div className="host-column">
          <SeriesList season={doc} version={version} games={games.data?.games} />
          <CommunitySettings season={doc} version={version} />
        </div>
        <div className="host-column">
          <HostsPanel community={community} admin={admin} />
          <ImportPanel community={community} />
          <AuditLog community={community} />
        </div>
      </div>
    </article>
  );
}
