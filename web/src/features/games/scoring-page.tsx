import {
  competitionRanks,
  guessPoints,
  LIVE_COUNTDOWN_MS,
  MAX_POINTS,
  percentile,
  predictPoints,
  predictTruthCrowd,
  withSpeedBonus,
} from '@hunch/rules';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useDocumentTitle } from '../../shared/use-document-title';

const n = (x: number) => x.toLocaleString('en-US');

// The worked examples are computed with the game's own rules, so the page cannot drift from them.
const GUESS_COUNTS = [12, 30, 50, 8]; // 70s, 80s, 90s, 00s
const GUESS_MINE = 1; // 80s
const PREDICT_RANGE = { min: 0, max: 30 };
const PREDICT_TRUTH = 12;
const PREDICT_MINE = 15;
const CROWD_MINE = 19;
const CROWD_ANSWERS = [10, 12, 15, CROWD_MINE, 40];
const SPEED_POINTS = 80;
const SPEED_SECS = 20;
const SPEED_AFTER_S = 10;
const RANK_SCORES = [240, 180, 180, 95];

function Example({ children }: { children: ReactNode }) {
  return (
    <div className="scoring-example">
      <p className="scoring-example-label">Example</p>
      {children}
    </div>
  );
}

function Kind({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="card scoring-kind" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

/** /scoring: DESIGN §2 in plain words, with a worked example for each kind of question. */
export function ScoringPage() {
  useDocumentTitle('How scoring works');
  const guess = guessPoints(GUESS_MINE, GUESS_COUNTS);
  const predict = predictPoints(PREDICT_MINE, PREDICT_TRUTH, PREDICT_RANGE);
  const crowdTruth = predictTruthCrowd(CROWD_ANSWERS) ?? 0;
  const crowd = predictPoints(CROWD_MINE, crowdTruth, PREDICT_RANGE);
  const span = PREDICT_RANGE.max - PREDICT_RANGE.min;
  const speed = withSpeedBonus(
    SPEED_POINTS,
    { startAt: 0, secs: [SPEED_SECS] },
    0,
    LIVE_COUNTDOWN_MS + SPEED_AFTER_S * 1000,
  );
  const ranks = competitionRanks(RANK_SCORES);
  const secondPercentile = percentile(1, RANK_SCORES.length);

  return (
    <article className="page page-narrow scoring-page">
      <header className="scoring-header">
        <h1>How scoring works</h1>
        <p>
          Every question is worth up to {MAX_POINTS} points. Your score for a game is the sum of your points
          for its questions; the results rank everyone who played by that score.
        </p>
      </header>

      <Kind id="scoring-vote" title="Vote for your favourite">
        <p>
          There is no right or wrong in a vote: it is your opinion. Votes earn no points; they show what the
          crowd likes best, and a guess question may be about them.
        </p>
        <Example>
          <p>You vote for the 80s. However many agree with you, the question gives you 0 points.</p>
        </Example>
      </Kind>

      <Kind id="scoring-guess" title="Guess the most popular answer">
        <p>
          You pick the answer you think most players chose. The most popular choice earns all {MAX_POINTS}{' '}
          points; any other choice earns its share: {MAX_POINTS} × (players who chose it) ÷ (players who chose
          the most popular one), rounded. When the guess belongs to a vote, the vote's answers count;
          otherwise the guesses themselves. A tie makes every top choice right.
        </p>
        <Example>
          <p>
            {n(GUESS_COUNTS[2]!)} players chose the 90s, the favourite, and {n(GUESS_COUNTS[1]!)} chose the
            80s. You guessed the 80s: {MAX_POINTS} × {n(GUESS_COUNTS[1]!)} ÷ {n(GUESS_COUNTS[2]!)} ={' '}
            <strong>{n(guess)} points</strong>. Guessing the 90s would have earned {MAX_POINTS}.
          </p>
        </Example>
      </Kind>

      <Kind id="scoring-predict" title="Predict the number">
        <p>
          You set a number on the slider. Once the real number is known (the host enters it after the event),
          the closer you were, the more you earn: your distance is measured as a share of the slider's range,
          and {MAX_POINTS} × (1 − that share)² is your score, rounded. Squaring it rewards being close far
          more than being roughly right; answers off by the whole range earn 0.
        </p>
        <Example>
          <p>
            The slider runs from {n(PREDICT_RANGE.min)} to {n(PREDICT_RANGE.max)} weeks and the answer is{' '}
            {n(PREDICT_TRUTH)}. You said {n(PREDICT_MINE)}: off by {n(PREDICT_MINE - PREDICT_TRUTH)} of{' '}
            {n(span)}, so {MAX_POINTS} × (1 − {n(PREDICT_MINE - PREDICT_TRUTH)}/{n(span)})² ={' '}
            <strong>{n(predict)} points</strong>.
          </p>
        </Example>
      </Kind>

      <Kind id="scoring-crowd" title="Predict what the crowd says">
        <p>
          Some number questions have no outside answer: the answer is the crowd's middle value (the median of
          everyone's numbers). Points then work as for any prediction.
        </p>
        <Example>
          <p>
            Five players answered {CROWD_ANSWERS.map(n).join(', ')}, you among them with {n(CROWD_MINE)}: the
            middle value is {n(crowdTruth)}. On a {n(PREDICT_RANGE.min)}–{n(PREDICT_RANGE.max)} slider you
            earn <strong>{n(crowd)} points</strong>. The 40 far off does not drag the answer away, as an
            average would.
          </p>
        </Example>
      </Kind>

      <Kind id="scoring-speed" title="Speed bonus in live games">
        <p>
          A live game may have a speed bonus. Then the last tenth of each question's points depends on how
          quickly you answered: an answer the moment the question appears keeps all its points, one at the
          last second keeps 90%. Answers after the time is up do not count.
        </p>
        <Example>
          <p>
            Your answer is worth {n(SPEED_POINTS)} points and you gave it {n(SPEED_AFTER_S)} seconds into a{' '}
            {n(SPEED_SECS)}-second question, with half the time left: {n(SPEED_POINTS)} × 95% ={' '}
            <strong>{n(speed)} points</strong>.
          </p>
        </Example>
      </Kind>

      <Kind id="scoring-ranks" title="Ranks, percentiles and teams">
        <p>
          Equal scores share a rank, and the next rank skips: scores of {RANK_SCORES.map(n).join(', ')} rank{' '}
          {ranks.join(', ')}. Your percentile is the share of the other players who scored less than you: the
          two players on {n(RANK_SCORES[1]!)} scored more than one of the three others, so their percentile is{' '}
          {secondPercentile.toLocaleString('en-US', { maximumFractionDigits: 2 })}.
        </p>
        <p>
          In a game between communities you play for one of your communities, chosen when you first enter.
          Community Rankings order the communities by their players' average score. Head to head, '2 on you'
          means that player has beaten you two more times than you beat them in the series; '2 below you', the
          other way round.
        </p>
      </Kind>

      <p className="note">
        Ready? <Link to="/play">Find a game to play</Link>.
      </p>
    </article>
  );
}
