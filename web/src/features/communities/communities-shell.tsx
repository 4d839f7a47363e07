import { Outlet } from 'react-router';
import { useProfile } from '../../api/use-profile';
import { NavItem } from '../../shared/nav-item';

/** /communities: top navigation over the search, joined list and community pages (spec §2). */
export function CommunitiesShell() {
  const profile = useProfile();
  return (
    <>
      <header className="top-bar top-bar-fill">
        <span className="brand" aria-hidden="true">
          Hunch
        </span>
        <nav aria-label="Communities" className="tabs">
          {profile && (
            <NavItem to="/communities/joined" className="tab">
              Your Communities
            </NavItem>
          )}
          <NavItem to="/communities/search" className="tab">
            Community Search
          </NavItem>
        </nav>
      </header>
      <Outlet />
    </>
  );
}
