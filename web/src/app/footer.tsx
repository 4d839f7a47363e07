import { userImageUrl } from '../api/asset-urls';
import { useProfile } from '../api/use-profile';
import { useImageVersion } from '../shared/image-version';
import { NavItem } from '../shared/nav-item';
import { SafeImg } from '../shared/safe-img';
import { LoginIcon, PeopleIcon, PlayIcon } from './icons';

/**
 * The bottom bar (spec §2): Communities always; Play and the profile image only when logged in;
 * Log in only when logged out. While the profile is still loading neither set is shown, so the bar
 * does not flash the wrong links.
 */
export function Footer() {
  const profile = useProfile();
  const imageVersion = useImageVersion();
  return (
    <footer className="app-footer">
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
        {profile && (
          <NavItem to="/profile" className="footer-link" label="Profile">
            <SafeImg className="footer-avatar" src={userImageUrl(profile.profile_img, imageVersion)} alt="" />
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
    </footer>
  );
}
