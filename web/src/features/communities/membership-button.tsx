import { Link, useLocation } from 'react-router';
import { errorText } from '../../api/client';
import { useMembership } from '../../api/use-membership';
import { useProfile } from '../../api/use-profile';
import { loginLinkFor } from '../../shared/paths';
import { useSingleFlight } from '../../shared/single-flight';
import { nameInSentence } from './community-text';

interface MembershipButtonProps {
  endpoint: string;
  name: string;
  joined: boolean;
}

/** Join / leave (spec §2, §4): leaving erases the member's data there, so it is confirmed first. */
export function MembershipButton({ endpoint, name, joined }: MembershipButtonProps) {
  const profile = useProfile();
  const { pathname } = useLocation();
  const membership = useMembership(endpoint);
  const sendOnce = useSingleFlight();
  const shown = nameInSentence(name);

  if (profile === undefined) return null;
  if (profile === null) {
    return (
      <div className="membership">
        <Link className="button button-primary" to={loginLinkFor(pathname)}>
          {`Log in to join ${shown}`}
        </Link>
      </div>
    );
  }

  const onClick = () => {
    if (membership.isPending) return;
    if (joined) {
      const sure = window.confirm(
        `Leave ${shown}? Your answers, scores and rankings in this community will be erased.`,
      );
      if (!sure) return;
    }
    sendOnce(() => membership.mutateAsync(!joined));
  };

  let label = joined ? `Leave ${shown}` : `Join ${shown}`;
  if (membership.isPending) label = membership.variables ? 'Joining...' : 'Leaving...';

  // aria-disabled, not disabled, while the call runs: a disabled button drops the keyboard focus
  // (to the page's start), and the player would have to find their place again. The same button
  // stays in place and reads Leave once joined.
  return (
    <div className="membership">
      <button
        type="button"
        className={joined ? 'button button-secondary' : 'button button-primary'}
        onClick={onClick}
        aria-disabled={membership.isPending || undefined}
      >
        {label}
      </button>
      {membership.isError && (
        <p className="form-error" role="alert">
          {errorText(membership.error)}
        </p>
      )}
    </div>
  );
}
