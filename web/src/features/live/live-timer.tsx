import { useEffect, useRef } from 'react';
import { useNow } from '../../shared/use-now';

/** Seconds left at which the time is announced, besides the start. */
const ANNOUNCE_AT_S = [10, 5] as const;
/** A threshold this close to the start announcement would only talk over it. */
const ANNOUNCE_GAP_S = 2;
/** The last seconds turn the bar and the number urgent: 5 s, or a third of a short question. */
const URGENT_S = 5;

const secondsText = (s: number) => (s === 1 ? '1 second' : `${s} seconds`);

interface QuestionTimerProps {
  /** Local ms when the question closes (from the server's time_left). */
  deadline: number;
  /** The whole answer window, ms. */
  totalMs: number;
  /** e.g. 'Question 2 of 4', said with the time at the start. */
  label: string;
  announce: (text: string) => void;
}

/**
 * The time left for a question: a bar that empties and the seconds, for the eyes; for screen
 * readers the time is announced at the start and at 10 s and 5 s left, never every second.
 * Mounted once per question.
 */
export function QuestionTimer({ deadline, totalMs, label, announce }: QuestionTimerProps) {
  const now = useNow(100).getTime();
  const left = Math.max(0, deadline - now);
  const secs = Math.min(Math.ceil(left / 1000), Math.ceil(totalMs / 1000));
  const fraction = totalMs > 0 ? Math.min(1, left / totalMs) : 0;
  const said = useRef<{ start: number; done: Set<number> } | null>(null);

  useEffect(() => {
    if (said.current === null) {
      said.current = { start: secs, done: new Set() };
      announce(`${label}. ${secondsText(secs)} to answer.`);
      return;
    }
    for (const at of ANNOUNCE_AT_S) {
      if (secs <= at && secs > 0 && !said.current.done.has(at)) {
        said.current.done.add(at);
        if (said.current.start >= at + ANNOUNCE_GAP_S) announce(`${secondsText(at)} left.`);
      }
    }
  }, [secs, label, announce]);

  const urgent = secs <= Math.min(URGENT_S, Math.ceil(totalMs / 3000));
  return (
    <div className={urgent ? 'live-timer is-urgent' : 'live-timer'}>
      <div className="live-timer-track" aria-hidden="true">
        <span className="live-timer-fill" style={{ transform: `scaleX(${fraction})` }} />
      </div>
      <p className="live-timer-text" role="timer" aria-label={`${secondsText(secs)} left`}>
        <span className="live-timer-secs">{secs}</span>
        <span className="live-timer-unit" aria-hidden="true">
          s
        </span>
      </p>
    </div>
  );
}
