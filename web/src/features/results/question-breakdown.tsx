import type { Game, MyAnswer, MyResult, QuestionItem, QuestionStats } from '@hunch/contract';
import { lazy, type ReactNode, Suspense, useId } from 'react';
import { useSearchParams } from 'react-router';
import { errorText } from '../../api/client';
import { useMyResult } from '../../api/game-queries';
import { useProfile } from '../../api/use-profile';
import { Loading } from '../../shared/loading';
import { VOIDED_NOTE } from '../../shared/question-text';
import { AnswerFacts } from './answer-facts';
import { ChoiceBars } from './choice-bars';
import { type FilterOption, filterOptions } from './filter-options';
import { formatCount, formatPoints } from './number-format';
import { type StatsFilter, useQuestionStats } from './results-api';
import { hasSubcommunities, useResultsGame } from './results-shell';

// The charts (recharts, about 96 KB gzip) are not in the page's first screen: the filters, counts
// and texts render without them (decision 025). Their chunk is asked for as soon as this screen's
// module runs, so it downloads while the statistics are fetched.
// Choice questions draw plain HTML bars (choice-bars.tsx), so only predictions wait for it.
const charts = import('./breakdown-charts');
const HistogramChart = lazy(async () => ({ default: (await charts).HistogramChart }));

const KIND_TEXT = { vote: 'Vote', guess: 'Guess', predict: 'Prediction' } as const;

interface FilterSelectProps {
  label: string;
  name: keyof StatsFilter;
  value: string;
  allText: string;
  options: FilterOption[];
  onChange: (name: keyof StatsFilter, value: string) => void;
}

function FilterSelect({ label, name, value, allText, options, onChange }: FilterSelectProps) {
  const id = useId();
  return (
    <div className="field filter-field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(name, e.target.value)}>
        <option value="">{allText}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

function Filters({
  game,
  filter,
  onChange,
}: {
  game: Game;
  filter: StatsFilter;
  onChange: FilterSelectProps['onChange'];
}) {
  return (
    <fieldset className="card filters">
      <legend className="section-heading">Filter players</legend>
      <p className="field-hint filters-hint">
        {hasSubcommunities(game)
          ? 'Show the answers of one group: by age, region or community.'
          : 'Show the answers of one group: by age or region.'}
      </p>
      <div className="filters-row">
        <FilterSelect
          label="Age"
          name="age"
          value={filter.age}
          allText="All ages"
          options={filterOptions(game.groups.age, filter.age)}
          onChange={onChange}
        />
        <FilterSelect
          label="Region"
          name="geo"
          value={filter.geo}
          allText="All regions"
          options={filterOptions(game.groups.geo, filter.geo)}
          onChange={onChange}
        />
        {hasSubcommunities(game) && (
          <FilterSelect
            label="Community"
            name="community"
            value={filter.community}
            allText="All communities"
            options={filterOptions(
              game.groups.community,
              filter.community,
              (v) => game.subcommunities[v] ?? v,
            )}
            onChange={onChange}
          />
        )}
      </div>
    </fieldset>
  );
}

function QuestionCard(props: {
  n: number;
  question: QuestionItem;
  stats: QuestionStats;
  mine: MyAnswer | undefined;
  played: boolean;
  filtered: boolean;
}) {
  const { n, question, stats, mine, played, filtered } = props;
  let body: ReactNode;
  if (stats.withheld) body = <p className="withheld-note">Too few players in this group to show.</p>;
  else if (stats.n === 0)
    body = (
      <p className="empty">{filtered ? 'No answers in this group.' : 'Nobody answered this question.'}</p>
    );
  else if (question.type === 'predict') {
    body = (
      // The smallest chart's height, so the card grows less when its chart arrives.
      <Suspense fallback={<div className="chart" style={{ height: 220 }} />}>
        <HistogramChart question={question} stats={stats} yours={mine?.number_answer ?? null} />
      </Suspense>
    );
  } else {
    body = <ChoiceBars question={question} stats={stats} filtered={filtered} yours={mine?.choice ?? null} />;
  }
  return (
    <li className={question.voided ? 'card breakdown-card is-voided' : 'card breakdown-card'}>
      <p className="eyebrow">
        Question {n} · {KIND_TEXT[question.type]}
        {question.voided && ' · Voided'}
      </p>
      <h3 className="breakdown-question">{question.question.text}</h3>
      {question.voided && <p className="voided-note">{VOIDED_NOTE}</p>}
      <AnswerFacts question={question} stats={stats} mine={mine} played={played} />
      {!stats.withheld && (
        <p className="breakdown-meta">
          {formatCount(stats.n)} {stats.n === 1 ? 'answer' : 'answers'}
          {filtered ? ' in this group' : ''}
        </p>
      )}
      {body}
    </li>
  );
}

/** The viewer's score and rank of N above the questions, when they played. */
function YourScore({ result }: { result: MyResult }) {
  return (
    <p className="card your-standing">
      You scored <strong>{formatPoints(result.score)}</strong>: rank{' '}
      <strong>{formatCount(result.rank)}</strong> of {formatCount(result.players)}.
    </p>
  );
}

/** results/breakdown: per-question statistics, filtered by age, region and community. */
export function QuestionBreakdown() {
  const game = useResultsGame();
  const profile = useProfile();
  const [params, setParams] = useSearchParams();
  const filter: StatsFilter = {
    age: params.get('age') ?? '',
    geo: params.get('geo') ?? '',
    community: hasSubcommunities(game) ? (params.get('community') ?? '') : '',
  };
  const stats = useQuestionStats(game.uuid, filter);
  const my = useMyResult(game.uuid, Boolean(profile));

  // The statistics are cut by one group at a time: choosing one filter clears the others.
  const onChange = (name: keyof StatsFilter, value: string) => {
    // From the live URL, not the render's copy: two quick changes must not undo each other.
    const next = new URLSearchParams(window.location.search);
    for (const key of ['age', 'geo', 'community'] as const) next.delete(key);
    if (value) next.set(name, value);
    setParams(next, { replace: true });
  };

  let content: ReactNode;
  if (stats.isPending) content = <Loading label="Loading statistics…" />;
  else if (stats.isError) {
    content = (
      <p className="form-error" role="alert">
        {errorText(stats.error)}
      </p>
    );
  } else {
    const { questions, stats: perQuestion } = stats.data;
    const result = my.data ?? null;
    const mine = new Map(result?.answers.map((a) => [a.question_i, a]) ?? []);
    content =
      questions.length === 0 ? (
        <p className="card empty-card">This game has no questions to break down.</p>
      ) : (
        <>
          {result && <YourScore result={result} />}
          <ol className="breakdown-list">
            {questions.map((q, k) => {
              const s = perQuestion[k];
              if (!s) return null;
              return (
                <QuestionCard
                  key={q.i}
                  n={k + 1}
                  question={q}
                  stats={s}
                  mine={mine.get(q.i)}
                  played={result !== null}
                  filtered={Boolean(filter.age || filter.geo || filter.community)}
                />
              );
            })}
          </ol>
        </>
      );
  }

  return (
    <section className="results-section" aria-labelledby="breakdown-heading" aria-busy={stats.isFetching}>
      <h2 id="breakdown-heading" className="visually-hidden">
        Question Breakdown
      </h2>
      <Filters game={game} filter={filter} onChange={onChange} />
      <p className="visually-hidden" aria-live="polite">
        {stats.isFetching ? 'Loading statistics…' : stats.isSuccess ? 'Statistics updated.' : ''}
      </p>
      <div className={stats.isPlaceholderData ? 'is-stale' : undefined}>{content}</div>
    </section>
  );
}
