import { Link } from 'react-router';
import { userImageUrl } from '../api/asset-urls';
import { useHostRole } from '../features/hosting/use-host-communities';
import { useImageVersion } from '../shared/image-version';
import { NavItem } from '../shared/nav-item';
import { SafeImg } from '../shared/safe-img';
import { LoginIcon, PeopleIcon, PlayIcon } from './icons';

/** A clipboard with a tick: the host console. Decorative, like the other footer icons. */
function HostIcon() {
  return (
    <svg
      width={24}
      height={24}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      focusable={false}
      aria-hidden="true"
    >
      <rect x="5" y="4" width="14" height="17" rx="2" />
      <path d="M9 4V3h6v1" />
      <path d="M9 13l2 2 4-4" />
    </svg>
  );
}

/**
 * The main navigation (spec §2's footer): Communities always; Play and the profile image only when
 * logged in; Log in only when logged out. While the profile is still loading neither set is shown,
 * so the bar does not flash the wrong links. Host only for hosts and admins (hosting spec §2), once
 * the server has said so; asked again when the window regains focus while the answer is "not a
 * host", so a host granted meanwhile sees the link on coming back to the tab. A tab bar at the bottom of a phone; on wide screens a top bar, with the
 * brand linking home (frame.css).
 */
export function Footer() {
  // Asked once the page has rendered: most players are no host, and the link can come a moment later.
  const { profile, isHost } = useHostRole();
  const imageVersion = useImageVersion();
  return (
    <header className="app-bar">
      <div className="app-bar-inner">
        <Link to="/" className="brand app-bar-brand">
          Hunch
        </Link>
        <nav aria-label="Main" className="footer-nav">
          <NavItem to="/communities" className="footer-link">
            <PeopleIcon />
            <span>Communities</span>
          </NavItem>
          {profile && (
            <NavItem to="/play" className="footer-link">
              <PlayIcon />
              <span>Play</span>
            </NavItem>
          )}
          {profile && isHost && (
            <NavItem to="/host" className="footer-link">
              <HostIcon />
              <span>Host</span>
            </NavItem>
          )}
          {profile && (
            <NavItem to="/profile" className="footer-link" label="Profile">
              <SafeImg
                className="footer-avatar"
                src={userImageUrl(profile.profile_img, imageVersion)}
                alt=""
              />
              <span aria-hidden="true">Profile</span>
            </NavItem>
          )}
          {profile === null && (
            <NavItem to="/login" exact className="footer-link">
              <LoginIcon />
              <span>Log in</span>
            </NavItem>
          )}
        </nav>
      </div>
    </header>
  );
}
