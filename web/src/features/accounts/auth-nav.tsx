import { Link } from 'react-router';
import { NavItem } from '../../shared/nav-item';

/** The upper navigation of /login and /register (spec §2). */
export function AuthNav() {
  return (
    <header className="top-bar">
      <Link to="/" className="brand">
        Hunch
      </Link>
      <nav aria-label="Account" className="tabs">
        <NavItem to="/login" exact className="tab">
          Login
        </NavItem>
        <NavItem to="/register" exact className="tab">
          Sign Up
        </NavItem>
      </nav>
    </header>
  );
}
