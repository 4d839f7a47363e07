import { Link, Outlet } from 'react-router';
import { useProfile } from '../../api/use-profile';
import { NavItem } from '../../shared/nav-item';
import { WelcomePanel } from './welcome-panel';

/**
 * /communities: top navigation over the search, joined list and community pages (spec §2), and a new
 * player's welcome above them.
 */
export function CommunitiesShell() {
  const profile = useProfile();
  return (
    <>
      <header className="top-bar top-bar-fill">
        <Link to="/" className="brand">
          Hunch
        </Link>
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
      <WelcomePanel />
      <Outlet />
    </>
  );
}
