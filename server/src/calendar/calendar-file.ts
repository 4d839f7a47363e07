import ical, { ICalAlarmType, type ICalCalendar } from 'ical-generator';
import type { CalendarGame } from './calendar-queries';

const seg = encodeURIComponent;

/** The game's page in the web app (spec §2), absolute. */
export const gameUrl = (origin: string, g: CalendarGame) =>
  `${origin}/play/${seg(g.community_endpoint)}/${seg(g.series_endpoint)}/${seg(g.uuid)}`;

/** '2026-12-01 18:00 UTC': a calendar shows the event in the reader's zone; the text says UTC. */
const utc = (d: Date) => `${new Date(d).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * When a game can be played: an asynchronous game from its opening to the close of submissions; a
 * live game from its lobby opening to its results (the live part sits in between).
 */
function eventOf(g: CalendarGame, origin: string) {
  const url = gameUrl(origin, g);
  const lines = g.synchronous
    ? [
        `Live game in ${g.series_name} (${g.community_name}).`,
        `Lobby opens ${utc(g.open_at)}; questions start ${utc(g.standby_at)}.`,
      ]
    : [
        `${g.series_name} (${g.community_name}): play at your own pace.`,
        `Submissions open ${utc(g.open_at)} until ${utc(g.standby_at)}; results from ${utc(g.complete_at)}.`,
      ];
  return {
    // Stable across downloads and feed refreshes: a calendar updates the event instead of adding one.
    id: `${g.uuid}@hunch`,
    start: new Date(g.open_at),
    end: new Date(g.synchronous ? g.complete_at : g.standby_at),
    summary: `${g.name} · ${g.community_name}`,
    description: `${lines.join('\n')}\n${url}`,
    url,
  };
}

function calendar(name: string, url: string): ICalCalendar {
  // No timezone: every time is written in UTC (…Z), which every calendar reads.
  return ical({ name, url, prodId: { company: 'Hunch', product: 'Hunch games', language: 'EN' } });
}

/** One game's .ics ('Add to calendar'), with a reminder 10 minutes before it opens. */
export function gameCalendar(g: CalendarGame, origin: string): string {
  const cal = calendar(g.name, gameUrl(origin, g));
  const event = cal.createEvent(eventOf(g, origin));
  event.createAlarm({ type: ICalAlarmType.display, triggerBefore: 600, description: `${g.name} opens` });
  return cal.toString();
}

/** A community's feed: every game of its series in the feed's window. */
export function communityCalendar(
  community: { endpoint: string; name: string },
  games: CalendarGame[],
  origin: string,
): string {
  const cal = calendar(`${community.name} · Hunch`, `${origin}/communities/${seg(community.endpoint)}`);
  // Calendar apps that honour it look for new games hourly.
  cal.ttl(3600);
  for (const g of games) cal.createEvent(eventOf(g, origin));
  return cal.toString();
}
