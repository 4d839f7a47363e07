import type { LiveQuestionEvent } from '@hunch/contract';
import { askedAt, deadlineOf } from '@hunch/rules';
import type { LiveGameInfo } from './live-schedule';

/** The 'question' event for question i, with the time left as of `now` (server clock). */
export function questionEvent(info: LiveGameInfo, i: number, now: number): LiveQuestionEvent {
  const q = info.questions[i]!;
  return {
    question: q.question,
    type: q.type,
    i,
    asked_at: askedAt(info.schedule, i),
    secs_to_answer: info.schedule.secs[i] ?? 0,
    time_left: Math.max(0, deadlineOf(info.schedule, i) - now),
  };
}
