import { askedAt, type LiveSchedule } from '@hunch/rules';
import type { LiveGameInfo } from './live-schedule';

// What a live player is told when an answer or a connection is refused.

/** Why an answer is not in time: the game or the question has not begun, or the question is closed. */
export function notInTime(s: LiveSchedule, i: number, receivedAt: number): string {
  if (receivedAt < s.startAt) return 'The game has not started';
  if (i < 0 || i >= s.secs.length) return 'This game has no such question';
  if (receivedAt < askedAt(s, i)) return 'This question is not open yet';
  return 'Too late: this question is closed';
}

/**
 * Why a player may not play for `asked` with their entry (null: they may): it represents another
 * community, or none (they left the one it represented).
 */
export function representationRefusal(
  info: LiveGameInfo,
  asked: { id: number; name: string },
  entry: number | null,
  entrySub: number | null,
): string | null {
  if (entry === null || entrySub === asked.id) return null;
  if (entrySub === null) return `You do not represent ${asked.name} in this game`;
  const current = [...info.subcommunities.values()].find((c) => c.id === entrySub);
  return `You already represent ${current?.name ?? 'another community'} in this game`;
}
