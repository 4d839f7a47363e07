/**
 * Which Twemoji each piece of demo content shows (code points, as @twemoji/svg names its files),
 * chosen to fit its theme; no two pictures of a kind are the same. demo-pictures.test.ts checks
 * that every demo community, series, game and question has one here and that the files exist.
 */

/** One per demo community (demo-content.ts). */
export const communityEmoji: Record<string, string> = {
  'hunch-hq': '1f52e', // crystal ball
  'the-movie-buffs': '1f3ac', // clapper board
  'the-book-club': '1f4da', // books
  'chart-toppers': '1f3a4', // microphone
  'binge-watchers': '1f4fa', // television
  'hoops-nation': '1f3c0', // basketball
  'gridiron-guessers': '1f3c8', // american football
  'pitch-perfect-fc': '26bd', // soccer ball
  'kitchen-table': '1f373', // cooking
  'lab-coats': '1f52c', // microscope
  quizzards: '1f9d9', // mage
  'board-game-cafe': '1f3b2', // game die
  'weather-watchers': '1f326', // sun behind rain cloud
};

/** One per series, by `community/series`; every community but Hunch HQ has a weekly series. */
export const seriesEmoji: Record<string, string> = {
  'hunch-hq/daily-hunch': '1f4c5', // calendar
  'hunch-hq/hunch-live': '26a1', // high voltage
  'hunch-hq/community-clash': '2694', // crossed swords
  'the-movie-buffs/weekly': '1f37f', // popcorn
  'the-book-club/weekly': '1f4d6', // open book
  'chart-toppers/weekly': '1f3a7', // headphone
  'binge-watchers/weekly': '1f6cb', // couch and lamp
  'hoops-nation/weekly': '26f9', // person bouncing ball
  'gridiron-guessers/weekly': '1f3df', // stadium
  'pitch-perfect-fc/weekly': '1f945', // goal net
  'kitchen-table/weekly': '1f372', // pot of food
  'lab-coats/weekly': '1f9ea', // test tube
  'quizzards/weekly': '1f9e0', // brain
  'board-game-cafe/weekly': '265f', // chess pawn
  'weather-watchers/weekly': '1f321', // thermometer
};

/** One per game, by `community/series/key`. */
export const gameEmoji: Record<string, string> = {
  'hunch-hq/daily-hunch/daily-41': '1f305', // sunrise
  'hunch-hq/daily-hunch/daily-42': '1f4f0', // newspaper
  'hunch-hq/daily-hunch/daily-43': '1f324', // sun behind small cloud
  'hunch-hq/daily-hunch/daily-44': '1f5d3', // spiral calendar
  'hunch-hq/community-clash/screens-vs-pages': '1f94a', // boxing glove
  'hunch-hq/community-clash/sound-vs-story': '1f3ba', // trumpet
  ...weekly('the-movie-buffs', ['1f3a5', '1f39e', '1f3c6']), // movie camera, film frames, trophy
  ...weekly('the-book-club', ['1f4d5', '2712', '1f516']), // closed book, nib, bookmark
  ...weekly('chart-toppers', ['1f3b8', '1f3b9', '1f941']), // guitar, keyboard, drum
  ...weekly('binge-watchers', ['1f3ad', '1f4fc', '1f6f0']), // masks, videocassette, satellite
  ...weekly('hoops-nation', ['1f3c5', '1f45f', '23f1']), // medal, running shoe, stopwatch
  ...weekly('gridiron-guessers', ['1f947', '1f3bd', '1f4e3']), // gold medal, shirt, megaphone
  ...weekly('pitch-perfect-fc', ['1f9e4', '1f97e', '1f3c1']), // gloves, boot, chequered flag
  ...weekly('kitchen-table', ['1f950', '1f370', '1f32e']), // croissant, cake, taco
  ...weekly('lab-coats', ['1f9ec', '1f52d', '2697']), // dna, telescope, alembic
  ...weekly('quizzards', ['2753', '1f4a1', '1f393']), // question mark, bulb, graduation cap
  ...weekly('board-game-cafe', ['1f9e9', '1f0cf', '1f3af']), // puzzle piece, joker, bullseye
  ...weekly('weather-watchers', ['2744', '1f308', '1f32a']), // snowflake, rainbow, tornado
};

function weekly(community: string, emoji: [string, string, string]): Record<string, string> {
  return Object.fromEntries(emoji.map((e, i) => [`${community}/weekly/week-${i + 1}`, e]));
}

/** One per question of each theme's set (demo-content.ts), in the set's order. */
export const questionEmoji: Record<string, readonly string[]> = {
  // season, the crowd's pick, commute, coffee, pet
  general: ['1f342', '1f465', '1f697', '2615', '1f436'],
  // genre, the crowd's pick, running time, cinema visits, snack
  movies: ['1f4fd', '1f39f', '23f3', '1f3ab', '1f36c'],
  // reading, the crowd's pick, pages, books a year, reading place
  books: ['1f4d3', '1f64b', '1f4c4', '1f4dd', '1f6cf'],
  // decade, the crowd's pick, weeks at number one, concerts, listening
  music: ['1f4fb', '1f4ca', '1f51d', '1f3aa', '1f4bf'],
  // sport, the crowd's pick, points, games watched, team colour
  sports: ['1f3be', '1f64c', '1f522', '1f9e2', '1f3a8'],
  // science, the crowd's pick, temperature, planets, invention
  science: ['269b', '1f4c8', '2600', '1fa90', '2699'],
};

/** The colour family of each theme's questions: that of the community the theme is named for. */
export const themeHue: Record<string, number> = {
  general: 265,
  movies: 0,
  books: 30,
  music: 300,
  sports: 20,
  science: 180,
};
