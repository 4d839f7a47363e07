import { Link } from 'react-router';
import { SCORING_PATH } from './paths';

/** The way to 'How scoring works', from game pages and results. */
export function ScoringLink() {
  return (
    <Link className="scoring-link" to={SCORING_PATH}>
      How scoring works
    </Link>
  );
}
