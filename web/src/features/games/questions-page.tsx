import { type ReactNode, useEffect, useRef } from 'react';
import { Link, Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { errorText, isApiError } from '../../api/client';
import { useGame, useParticipation } from '../../api/game-queries';
import { useGameChannel } from '../../api/use-game-channel';
import { Loading } from '../../shared/loading';
import { gamePath, questionsPath, seriesPath } from '../../shared/paths';
import { QUESTION_KIND_TEXT } from '../../shared/question-text';
import { useDocumentTitle } from '../../shared/use-document-title';
import type { GamePageState } from './game-page';
import { answeredCount, correctedQuestionNumber, orderedQuestions, stillUnanswered } from './question-flow';
import { QuestionForm } from './question-form';

/** Spec §2: the browser asks for confirmation before leaving the question flow. */
function useLeaveConfirmation(): void {
  useEffect(() => {
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      // Only while the flow is the page: should the removal below come late (it did under Preact),
      // the next page must not inherit the prompt.
      if (!window.location.pathname.endsWith('/questions')) return;
      e.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, []);
}

function Screen({ children }: { children: ReactNode }) {
  return (
    <main className="question-screen" id="main">
      {children}
    </main>
  );
}

/** /play/{community}/{series}/{uuid}/questions?q=N: the answer flow, without the navigation bar. */
export function QuestionsPage() {
  const { community = '', series = '', uuid = '' } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const unsentChange = useRef(false);
  const game = useGame(uuid);
  const participation = useParticipation(uuid);
  useLeaveConfirmation();
  useGameChannel(uuid, () => navigate(seriesPath(community, series), { replace: true }));
  useDocumentTitle(game.data ? `Questions · ${game.data.name}` : 'Questions');

  const q = Number(params.get('q'));
  // Move focus to the new question so screen readers read it, as on a page change.
  useEffect(() => {
    if (q > 0) headingRef.current?.focus();
  }, [q]);

  const gameUrl = gamePath({ uuid, community: { endpoint: community }, series: { endpoint: series } });
  if (game.isPending || participation.isPending) {
    return (
      <Screen>
        <Loading label="Loading questions…" />
      </Screen>
    );
  }
  if (game.isError) {
    if (isApiError(game.error, 404) || isApiError(game.error, 400)) {
      return <Navigate to={seriesPath(community, series)} replace />;
    }
    return (
      <Screen>
        <p className="form-error" role="alert">
          {errorText(game.error)}
        </p>
      </Screen>
    );
  }
  // No entry, a game that is not taking answers, or a live game: back to the game page (spec §2).
  const g = game.data;
  const entry = participation.data;
  if (!entry || g.state !== 'open' || g.synchronous || participation.isError) {
    // Submissions closed under a changed answer: the game page says it was not saved.
    const state: GamePageState | undefined = unsentChange.current ? { unsentAnswerLost: true } : undefined;
    return <Navigate to={gamePath(g)} replace state={state} />;
  }
  const questions = orderedQuestions(entry);
  if (questions.length === 0) return <Navigate to={gamePath(g)} replace />;
  const corrected = correctedQuestionNumber(q, questions.length);
  if (corrected !== null) return <Navigate to={questionsPath(g, corrected)} replace />;

  const question = questions[q - 1]!;
  const total = questions.length;
  const isLast = q === total;
  const saved = entry.answers[String(question.i)];
  const answered = answeredCount(entry);
  const headingId = `question-${question.i}-text`;
  // Moving through the flow replaces its history entry: Back leaves the questions for where the
  // player came from (the game page), rather than walk back through every question.
  const next = () => {
    const open = isLast ? stillUnanswered(entry, question.i) : q + 1;
    navigate(open === null ? `${gamePath(g)}?complete=1` : questionsPath(g, open), { replace: true });
  };

  return (
    <Screen>
      <header className="question-bar">
        <Link
          className="question-exit"
          to={gameUrl}
          replace
          aria-label={`Leave the questions and go back to ${g.name}`}
        >
          <span aria-hidden="true">✕</span>
        </Link>
        <div className="question-bar-text">
          <p className="question-game bar-title">{g.name}</p>
          <p className="question-progress-text" aria-live="polite">
            Question {q} of {total}
          </p>
        </div>
        <p className="question-answered">
          {answered}/{total} answered
        </p>
        <div
          className="question-progress"
          role="progressbar"
          aria-label="Progress"
          aria-valuemin={1}
          aria-valuemax={total}
          aria-valuenow={q}
          aria-valuetext={`Question ${q} of ${total}`}
        >
          <span style={{ width: `${(100 * q) / total}%` }} />
        </div>
      </header>
      <article className="question-card card" key={question.i}>
        <p className="eyebrow">{QUESTION_KIND_TEXT[question.type]}</p>
        <h1 id={headingId} ref={headingRef} tabIndex={-1} className="question-text">
          {question.question.text}
        </h1>
        <QuestionForm
          game={g}
          participation={entry}
          question={question}
          isLast={isLast}
          onSaved={next}
          headingId={headingId}
          unsentChange={unsentChange}
          navigation={
            <div className="question-nav">
              {q > 1 ? (
                <Link className="button button-secondary" to={questionsPath(g, q - 1)} replace>
                  <span aria-hidden="true">←</span> Previous
                </Link>
              ) : (
                <span />
              )}
              {saved && !isLast && (
                <Link className="button button-secondary" to={questionsPath(g, q + 1)} replace>
                  Next <span aria-hidden="true">→</span>
                </Link>
              )}
              {saved && isLast && answered === total && (
                <Link className="button button-secondary" to={`${gamePath(g)}?complete=1`} replace>
                  Done
                </Link>
              )}
            </div>
          }
        />
      </article>
    </Screen>
  );
}
