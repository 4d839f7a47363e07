import { useEffect, useRef, useState } from 'react';

type Outcome = 'idle' | 'shared' | 'copied' | 'manual';

interface ShareLinkButtonProps {
  /** The absolute link to share. */
  url: string;
  title: string;
  text: string;
  label: string;
}

/** Three linked dots, the usual sign for sharing. Decorative: the button's text names it. */
function ShareIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M8.6 10.7l6.8-3.4M8.6 13.3l6.8 3.4" stroke="currentColor" strokeWidth="2" />
      <circle cx="18" cy="6" r="3" fill="currentColor" />
      <circle cx="6" cy="12" r="3" fill="currentColor" />
      <circle cx="18" cy="18" r="3" fill="currentColor" />
    </svg>
  );
}

/** How long 'Link copied' stays before the button reads as before. */
const CONFIRM_MS = 4000;

/**
 * Shares a link: the system's share sheet where the browser has one (phones), else copies the
 * link, and says which happened. Where neither works (no clipboard on a plain-HTTP address) the
 * link is shown selected, to copy by hand.
 */
export function ShareLinkButton({ url, title, text, label }: ShareLinkButtonProps) {
  const [outcome, setOutcome] = useState<Outcome>('idle');
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const settle = (next: Outcome) => {
    setOutcome(next);
    window.clearTimeout(timer.current);
    if (next !== 'manual') timer.current = window.setTimeout(() => setOutcome('idle'), CONFIRM_MS);
  };

  const share = async () => {
    const data = { title, text, url };
    if (typeof navigator.share === 'function' && (navigator.canShare?.(data) ?? true)) {
      try {
        await navigator.share(data);
        settle('shared');
        return;
      } catch (err) {
        // Closing the share sheet is the person's choice, not a failure.
        if (err instanceof DOMException && err.name === 'AbortError') return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      settle('copied');
    } catch {
      settle('manual');
    }
  };

  return (
    <div className="share-link">
      <button type="button" className="button button-secondary" onClick={() => void share()}>
        <ShareIcon /> {label}
      </button>
      <p className="share-link-status" role="status">
        {outcome === 'copied' && 'Link copied'}
        {outcome === 'shared' && 'Shared'}
      </p>
      {outcome === 'manual' && (
        <label className="share-link-manual">
          Copy this link
          <input type="text" readOnly value={url} ref={(input) => input?.select()} />
        </label>
      )}
    </div>
  );
}
