import { COUNTDOWN_REFRESH_MS } from '@hunch/contract';
import { countdownText } from '@hunch/rules';
import { useNow } from '../../shared/use-now';

/** 'mm:ss' to `target` when it is today and under 180 s away (spec §4), refreshed every 500 ms. */
export function Countdown({ target }: { target: Date }) {
  const now = useNow(COUNTDOWN_REFRESH_MS);
  const text = countdownText(target, now);
  if (!text) return null;
  return (
    <span className="countdown" role="timer" aria-label={`in ${text}`}>
      {text}
    </span>
  );
}
