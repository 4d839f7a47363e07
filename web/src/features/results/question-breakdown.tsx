import type { Game, QuestionItem, QuestionStats, SavedAnswer } from '@hunch/contract';
import { type ReactNode, useId } from 'react';
import { useSearchParams } from 'react-router';
import { errorText } from '../../api/client';
import { useParticipation } from '../../api/game-queries';
import { useProfile } from '../../api/use-profile';
import { Loading } from '../../shared/loading';
import { numberText } from '../../shared/question-text';
import { ChoiceChart, HistogramChart } from './breakdown-charts';
import { type FilterOption, filterOptions } from './filter-options';
import { type StatsFilter, useQuestionStats } from './results-api';
import { hasSubcommunities, useResultsGame } from './results-shell';

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

function yourAnswerText(question: QuestionItem, saved: SavedAnswer | undefined): string | null {
  if (!saved) return null;
  if (question.type === 'predict') {
    if (saved.number_answer === null) return null;
    return numberText(saved.number_answer, question.question.slider?.unit);
  }
  return saved.choice ?? null;
}

function QuestionCard(props: {
  n: number;
  question: QuestionItem;
  stats: QuestionStats;
  yours: string | null;
  filtered: boolean;
}) {
  const { n, question, stats, yours, filtered } = props;
  let body: ReactNode;
  if (stats.withheld) body = <p className="withheld-note">Too few players in this group to show.</p>;
  else if (stats.n === 0) body = <p className="empty">No answers in this group.</p>;
  else if (question.type === 'predict') body = <HistogramChart question={question} stats={stats} />;
  else body = <ChoiceChart question={question} stats={stats} filtered={filtered} />;
  return (
    <li className={question.voided ? 'card breakdown-card is-voided' : 'card breakdown-card'}>
      <p className="eyebrow">
        Question {n} · {KIND_TEXT[question.type]}
        {question.voided && ' · Voided'}
      </p>
      <h3 className="breakdown-question">{question.question.text}</h3>
      {question.voided && (
        <p className="voided-note">The host voided this question: it scores 0 points for everyone.</p>
      )}
      <p className="breakdown-meta">
        {!stats.withheld && (
          <span>
            {stats.n.toLocaleString('en-US')} {stats.n === 1 ? 'answer' : 'answers'}
          </span>
        )}
        {yours && (
          <span>
            Your answer: <strong>{yours}</strong>
          </span>
        )}
      </p>
      {body}
    </li>
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
  const participation = useParticipation(game.uuid, Boolean(profile));

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
    const answers = participation.data?.answers ?? {};
    content =
      questions.length === 0 ? (
        <p className="card empty-card">This game has no questions to break down.</p>
      ) : (
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
                yours={yourAnswerText(q, answers[String(q.i)])}
                filtered={Boolean(filter.age || filter.geo || filter.community)}
              />
            );
          })}
        </ol>
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
