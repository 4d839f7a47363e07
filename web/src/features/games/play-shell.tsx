import { Link, Outlet } from 'react-router';
import { NavItem } from '../../shared/nav-item';

/** /play: top navigation over the game lists, series, game and results pages (spec §2). */
export function PlayShell() {
  return (
    <>
      <header className="top-bar top-bar-fill">
        <Link to="/" className="brand">
          Hunch
        </Link>
        <nav aria-label="Play" className="tabs">
          <NavItem to="/play/current" className="tab">
            Happening Now
          </NavItem>
          <NavItem to="/play/upcoming" className="tab">
            Upcoming
          </NavItem>
          <NavItem to="/play/recent" className="tab">
            Results
          </NavItem>
        </nav>
      </header>
      <Outlet />
    </>
  );
}
