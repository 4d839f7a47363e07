import type {
  Game,
  Participation,
  QuestionItem,
  SavedAnswer,
  SeasonGame,
  SeasonQuestion,
} from '@hunch/contract';

/**
 * Contract-shaped values for the web's unit tests: valid by default, overridden where a test is
 * about something. Product code never imports this folder.
 */

let seq = 0;

export function makeGame(overrides: Partial<Game> = {}): Game {
  seq += 1;
  return {
    uuid: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
    name: `Game ${seq}`,
    image: '',
    series: { endpoint: 'weekly', name: 'Weekly', image: 'weekly.jpg' },
    community: { endpoint: 'book-club', name: 'The Book Club' },
    schedule: {
      open: '2030-01-07T18:00:00.000Z',
      standby: '2030-01-08T18:00:00.000Z',
      complete: '2030-01-09T18:00:00.000Z',
    },
    synchronous: false,
    state: 'open',
    status: 'ongoing',
    participants: 0,
    subcommunities: {},
    groups: { age: [], geo: [], community: [] },
    question_count: 3,
    waiting_for: [],
    ...overrides,
  };
}

export function choiceQuestion(i: number, choices = ['Red', 'Green', 'Blue']): QuestionItem {
  return {
    type: 'vote',
    i,
    question: {
      text: `Question ${i}?`,
      image: null,
      choices: choices.map((text, n) => ({ text, image: null, i: n })),
      slider: null,
    },
    voided: false,
  };
}

export function sliderQuestion(i: number, slider = { min: 0, max: 100, step: 5, unit: 'km' }): QuestionItem {
  return {
    type: 'predict',
    i,
    question: { text: `How far ${i}?`, image: null, choices: [], slider },
    voided: false,
  };
}

export function savedChoice(choice_i: number, choice: string): SavedAnswer {
  return { choice, choice_i, number_answer: null };
}

export function savedNumber(n: number): SavedAnswer {
  return { choice: null, choice_i: null, number_answer: n };
}

export function makeParticipation(
  questions: QuestionItem[],
  answers: Record<number, SavedAnswer> = {},
): Participation {
  return {
    entry: { subcommunity: null, rank: null, score: null, questions },
    answers: Object.fromEntries(Object.entries(answers).map(([i, a]) => [String(i), a])),
  };
}

/** A game of a season file, as the host console edits it: week-1, asynchronous, these questions. */
export function makeSeasonGame(questions: SeasonQuestion[], overrides: Partial<SeasonGame> = {}): SeasonGame {
  return {
    key: 'week-1',
    synchronous: false,
    speed_bonus: false,
    schedule: {
      open: '2026-12-01T18:00:00Z',
      standby: '2026-12-03T18:00:00Z',
      complete: '2026-12-04T18:00:00Z',
    },
    subcommunities: [],
    questions,
    ...overrides,
  };
}
