import type { SeasonQuestionInput } from '@hunch/contract';

/** The demo's live series, in Hunch HQ: the live demo adds its games a few minutes ahead. */
export const LIVE_SERIES = { community: 'hunch-hq', endpoint: 'hunch-live', name: 'Hunch Live' } as const;

/** Demo communities: enough groups and sizes that search, filters and '< 50' all show. */
export const demoCommunities = [
  {
    endpoint: 'hunch-hq',
    name: 'Hunch HQ',
    hue: 265,
    weight: 0.9,
    description: 'The home of the Daily Hunch and the Community Clash.',
    categories: [
      { group: null, name: 'Trivia' },
      { group: null, name: 'Games' },
    ],
  },
  {
    endpoint: 'the-movie-buffs',
    name: 'The Movie Buffs',
    hue: 0,
    weight: 0.45,
    description: 'Box office, awards season and popcorn opinions.',
    categories: [{ group: 'Entertainment', name: 'Movies' }],
  },
  {
    endpoint: 'the-book-club',
    name: 'The Book Club',
    hue: 30,
    weight: 0.35,
    description: 'Page-turners, prize lists and what to read next.',
    categories: [{ group: 'Entertainment', name: 'Books' }],
  },
  {
    endpoint: 'chart-toppers',
    name: 'Chart Toppers',
    hue: 300,
    weight: 0.4,
    description: 'Guess the hits before they hit.',
    categories: [{ group: 'Entertainment', name: 'Music' }],
  },
  {
    endpoint: 'binge-watchers',
    name: 'Binge Watchers',
    hue: 200,
    weight: 0.3,
    description: 'Finales, cliffhangers and the next big show.',
    categories: [{ group: 'Entertainment', name: 'TV' }],
  },
  {
    endpoint: 'hoops-nation',
    name: 'Hoops Nation',
    hue: 20,
    weight: 0.25,
    description: 'Scores, stars and playoff hunches.',
    categories: [{ group: 'Sports', name: 'Basketball' }],
  },
  {
    endpoint: 'gridiron-guessers',
    name: 'Gridiron Guessers',
    hue: 120,
    weight: 0.2,
    description: 'Sunday predictions, every week.',
    categories: [{ group: 'Sports', name: 'Football' }],
  },
  {
    endpoint: 'pitch-perfect-fc',
    name: 'Pitch Perfect FC',
    hue: 150,
    weight: 0.08,
    description: 'The beautiful game, predicted.',
    categories: [{ group: 'Sports', name: 'Soccer' }],
  },
  {
    endpoint: 'kitchen-table',
    name: 'Kitchen Table',
    hue: 45,
    weight: 0.07,
    description: 'Favourite dishes and food fights.',
    categories: [{ group: null, name: 'Food' }],
  },
  {
    endpoint: 'lab-coats',
    name: 'Lab Coats',
    hue: 180,
    weight: 0.06,
    description: 'Science questions with real answers.',
    categories: [{ group: null, name: 'Science' }],
  },
  {
    endpoint: 'quizzards',
    name: 'Quizzards',
    hue: 240,
    weight: 0.1,
    description: 'Trivia for the quick-witted.',
    categories: [{ group: null, name: 'Trivia' }],
  },
  {
    endpoint: 'board-game-cafe',
    name: 'Board Game Café',
    hue: 90,
    weight: 0.05,
    description: 'Meeples, dice and strategy.',
    categories: [{ group: null, name: 'Games' }],
  },
  {
    endpoint: 'weather-watchers',
    name: 'Weather Watchers',
    hue: 210,
    weight: 0.04,
    description: 'Predict the highs, the lows and the first snow.',
    categories: [{ group: null, name: 'Science' }],
  },
] as const;

/** Where demo players live: real zipcodes across metro areas, so several geo-groups fill up. */
export const demoZipcodes = [
  '10001',
  '11215',
  '90210',
  '90012',
  '60614',
  '77002',
  '94103',
  '02139',
  '98101',
  '30303',
  '33101',
  '85004',
  '80202',
  '19103',
  '79843',
];

/**
 * A themed question set, as a season file writes it: a vote, a guess linked to it, a predict with a
 * known outcome, a predict the crowd decides, and a guess.
 */
export interface QuestionSet {
  theme: string;
  questions: SeasonQuestionInput[];
}

const set = (
  theme: string,
  vote: [string, string[]],
  predictHost: [string, { min: number; max: number; step: number; unit: string }, number],
  predictCrowd: [string, { min: number; max: number; step: number; unit: string }],
  guess: [string, string[]],
): QuestionSet => ({
  theme,
  questions: [
    { kind: 'vote', text: vote[0], choices: vote[1] },
    {
      kind: 'guess',
      text: 'Which answer to the last question will be the most popular?',
      choices: vote[1],
      linked_vote: 1,
    },
    { kind: 'predict', text: predictHost[0], slider: predictHost[1], outcome: predictHost[2] },
    { kind: 'predict', text: predictCrowd[0], slider: predictCrowd[1], outcome: 'crowd' },
    { kind: 'guess', text: guess[0], choices: guess[1] },
  ],
});

export const questionSets: QuestionSet[] = [
  set(
    'general',
    ['Which season do you like best?', ['Spring', 'Summer', 'Autumn', 'Winter']],
    [
      'How many minutes does the average commute take in the US?',
      { min: 0, max: 60, step: 1, unit: 'min' },
      27,
    ],
    [
      'How many cups of coffee will players say they drink a week?',
      { min: 0, max: 40, step: 1, unit: 'cups' },
    ],
    ['Which pet will most players pick as the best?', ['Dog', 'Cat', 'Fish', 'Parrot']],
  ),
  set(
    'movies',
    ['Which film genre do you watch most?', ['Comedy', 'Drama', 'Action', 'Horror', 'Animation']],
    [
      'How long, in minutes, was the longest Best Picture winner of the last decade?',
      { min: 90, max: 240, step: 1, unit: 'min' },
      180,
    ],
    [
      'How many films will players say they watched in a cinema this year?',
      { min: 0, max: 30, step: 1, unit: 'films' },
    ],
    ['Which snack will most players choose at the cinema?', ['Popcorn', 'Nachos', 'Candy', 'Nothing']],
  ),
  set(
    'books',
    ['What do you read most?', ['Novels', 'Non-fiction', 'Comics', 'Poetry']],
    ['How many pages long is the average bestseller?', { min: 100, max: 800, step: 10, unit: 'pages' }, 350],
    ['How many books will players say they read last year?', { min: 0, max: 100, step: 1, unit: 'books' }],
    ['Where do most players like to read?', ['In bed', 'On a commute', 'On the sofa', 'Outdoors']],
  ),
  set(
    'music',
    ['Which decade had the best music?', ['70s', '80s', '90s', '00s', '10s']],
    [
      'How many weeks did the longest-running number one of all time stay on top?',
      { min: 0, max: 30, step: 1, unit: 'weeks' },
      19,
    ],
    [
      'How many concerts will players say they went to this year?',
      { min: 0, max: 20, step: 1, unit: 'shows' },
    ],
    ['Which way of listening will most players pick?', ['Streaming', 'Radio', 'Vinyl', 'CD']],
  ),
  set(
    'sports',
    ['Which sport do you enjoy watching most?', ['Basketball', 'Football', 'Soccer', 'Baseball', 'Tennis']],
    [
      'How many points will be scored in the championship final?',
      { min: 100, max: 300, step: 1, unit: 'pts' },
      211,
    ],
    [
      'How many games will players say they watched this season?',
      { min: 0, max: 82, step: 1, unit: 'games' },
    ],
    ['Which team colour will most players pick?', ['Red', 'Blue', 'Green', 'Black']],
  ),
  set(
    'science',
    ['Which science would you study?', ['Physics', 'Biology', 'Chemistry', 'Astronomy']],
    [
      'What was the highest temperature in the city this month?',
      { min: -10, max: 45, step: 0.5, unit: '°C' },
      31.5,
    ],
    [
      "How many planets could host life, by the players' median guess?",
      { min: 0, max: 1000, step: 10, unit: 'planets' },
    ],
    [
      'Which invention will most players call the greatest?',
      ['The wheel', 'The printing press', 'Electricity', 'The internet'],
    ],
  ),
];

export const adjectives = [
  'sunny',
  'quiet',
  'brave',
  'lucky',
  'clever',
  'swift',
  'jolly',
  'calm',
  'bold',
  'witty',
  'eager',
  'noble',
  'zesty',
  'merry',
  'keen',
  'fuzzy',
];
export const animals = [
  'otter',
  'falcon',
  'panda',
  'fox',
  'heron',
  'lynx',
  'koala',
  'badger',
  'gecko',
  'moose',
  'owl',
  'tiger',
  'whale',
  'yak',
  'bison',
  'crane',
];
