import type { HostGame, Season, SeasonGame, SeasonImportResult, SeasonProblem } from '@hunch/contract';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { errorText } from '../../api/client';
import { useSingleFlight } from '../../shared/single-flight';
import { formatWhen, withLocalTimes } from '../../shared/time-text';
import { useDocumentTitle } from '../../shared/use-document-title';
import { fieldId, gameFields } from './error-paths';
import { FieldProblems, ProblemsProvider } from './fields';
import { GameSettings } from './game-settings';
import { GameStateLine } from './game-state-line';
import { deleteGame, type HostSeason, useRefreshHost } from './host-api';
import { hostGamePath, hostSeriesPath } from './host-paths';
import { conflictLines, plural } from './host-text';
import { OutcomesPanel } from './outcomes-panel';
import { QuestionEditor } from './question-editor';
import { QuestionPreview } from './question-preview';
import { SaveBar, useSeasonSave } from './save-bar';
import {
  addQuestion,
  gameIndex,
  gamePathOf,
  moveQuestion,
  QUESTIONS_MAX,
  removeQuestion,
  replaceQuestion,
  seriesIndex,
  withGame,
  withOpenedParts,
} from './season-edit';
import { useDraft } from './use-draft';
import { useFollowedGame } from './use-followed-game';
import { useLeaveGuard } from './use-leave-guard';

/** Delete, only before the game opens (the server answers 409 after), confirmed first. */
function DeleteGame({
  hosted,
  name,
  onDeleted,
}: {
  hosted: HostGame;
  name: string;
  onDeleted: () => Promise<void>;
}) {
  const sendOnce = useSingleFlight();
  const remove = useMutation({ mutationFn: () => deleteGame(hosted.uuid), onSuccess: onDeleted });
  return (
    <section className="card host-section" aria-labelledby="delete-heading">
      <h2 id="delete-heading">Delete</h2>
      <p className="note">A game may be deleted until it opens. Deleting cannot be undone.</p>
      <button
        type="button"
        className="button host-danger-button"
        disabled={remove.isPending}
        onClick={() => {
          if (window.confirm(`Delete ${name}? Its questions go with it. This cannot be undone.`))
            sendOnce(() => remove.mutateAsync());
        }}
      >
        Delete game
      </button>
      {remove.isError && (
        <p className="form-error" role="alert">
          {withLocalTimes(errorText(remove.error))}
        </p>
      )}
    </section>
  );
}

export interface GameEditorProps {
  season: Season;
  /** The document's version, which a save names: refused when the community changed since. */
  version: HostSeason['version'];
  si: number;
  /** The game's place in its series, or -1 for a new game. */
  gi: number;
  /** The game as the document holds it (or the new game's first draft). */
  initial: SeasonGame;
  /** The game's uuid, state and lock; undefined for a new game. */
  hosted: HostGame | undefined;
}

/**
 * A new game whose submissions open time has passed opens as it is created, and an opened game can
 * no longer be deleted (hosting spec §2): a year typed wrong could not be undone, so the host says
 * it is meant. A season file may still bring past games (a copied season), unasked.
 */
function confirmOpeningAtOnce(open: string): boolean {
  const at = Date.parse(open);
  if (!(at <= Date.now())) return true;
  return window.confirm(
    'Submissions open at a time that has passed: the game opens as soon as it is created, and an opened game cannot be deleted. Create it?',
  );
}

/**
 * A new game whose answers would close before it is made could never be answered, and could never
 * be deleted: refused beside its field, before anything is sent. (A season file may bring one: a
 * season copied from another site with its past games.)
 */
function closedAlready(at: string, standby: string): SeasonProblem[] {
  if (!(Date.parse(standby) <= Date.now())) return [];
  return [
    {
      path: `${at}.schedule.standby`,
      message: "This time has passed: a new game's answers must close later than now",
    },
  ];
}

/** The game editor (hosting spec §2): settings, questions, preview, outcomes and delete. */
export function GameEditor({ season, version, si, gi, initial, hosted }: GameEditorProps) {
  const navigate = useNavigate();
  const series = season.series[si]!;
  const community = season.community.endpoint;
  const isNew = gi < 0;
  // A new game's first draft is made once; a saved game's follows the document while untouched.
  const [first] = useState(initial);
  const [game, setGame, dirty, conflicts] = useDraft(isNew ? first : initial);
  const [preview, setPreview] = useState(false);
  const locked = hosted?.locked ?? false;
  const at = gamePathOf(si, isNew ? series.games.length : gi);
  const known = useMemo(() => gameFields(at, game), [at, game]);
  const name = game.name || series.name;
  useDocumentTitle(`Host · ${isNew ? 'New game' : name}`);

  // Leaving with edits not saved asks first; saving a new game or deleting one leaves on purpose.
  const leaving = useRef(false);
  const refresh = useRefreshHost();
  useFollowedGame(hosted?.uuid);
  useLeaveGuard(dirty, 'Leave this game? Your changes are not saved.', leaving);
  const leave = (to: string) => {
    leaving.current = true;
    navigate(to, { replace: true });
  };

  // The game opened while it was being edited: what its opening locked goes back to what was
  // saved, and the host is told so. Before, the save kept the saved questions without a word
  // ('Saved: nothing changed' beside the edited text), and a live switch or subcommunity edited
  // before the opening stayed in the form, disabled, refused on every save.
  const [editsLocked, setEditsLocked] = useState(false);
  const wasLocked = useRef(locked);
  useEffect(() => {
    if (wasLocked.current === locked) return;
    wasLocked.current = locked;
    // An untouched draft follows the saved game already. `initial` is the saved game in the
    // editor's own form (choices as objects), as the draft is: compared as they are.
    if (!locked || isNew || !dirty) return;
    const { game: back, changed } = withOpenedParts(game, initial);
    if (!changed) return;
    setGame(() => back);
    setEditsLocked(true);
  }, [locked, isNew, dirty, initial, game, setGame]);

  const onSaved = (result: SeasonImportResult) => {
    if (!isNew) return;
    const placed = result.games.find((g) => g.series === series.endpoint && g.key === game.key);
    if (placed?.uuid) leave(hostGamePath(community, series.endpoint, placed.uuid));
  };
  const save = useSeasonSave(known, onSaved);
  // The game as `doc` holds it (none yet for a new one): where the edits go, and what they edit.
  const placeIn = (doc: Season) => {
    const i = seriesIndex(doc, series.endpoint);
    const j = i < 0 ? -1 : gameIndex(doc.series[i]!, game.key);
    return { i, j, stored: doc.series[i]?.games[j] };
  };
  const build = (doc: Season) => {
    const { i, j, stored } = placeIn(doc);
    if (i < 0 || (!isNew && !stored)) return null;
    // Once opened, the questions are what the server holds (outcomes entered since included).
    return withGame(
      doc,
      i,
      isNew ? -1 : j,
      locked && stored ? { ...game, questions: stored.questions } : game,
    );
  };

  // After a move the moved question's button takes the focus again (its element has moved).
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    if (!focusNext.current) return;
    document.getElementById(focusNext.current)?.focus();
    focusNext.current = null;
  });
  const count = game.questions.length;
  const qAt = (i: number) => `${at}.questions.${i}`;
  // Counts the moves and removals: a question editor's place may then hold another question.
  const [layout, setLayout] = useState(0);
  const move = (i: number, delta: number) => {
    const j = i + delta;
    setGame((g) => moveQuestion(g, i, delta));
    setLayout((n) => n + 1);
    const edge = delta < 0 ? j === 0 : j === count - 1;
    focusNext.current = `${fieldId(qAt(j))}-${(delta < 0) !== edge ? 'up' : 'down'}`;
  };

  return (
    <article className="page host-page host-page-editor" aria-labelledby="game-heading">
      <header>
        <p className="eyebrow">{isNew ? 'New game' : 'Game'}</p>
        <h1 id="game-heading">{name}</h1>
        <p className="note">
          {series.name} · key {game.key}
          {hosted && (
            <>
              {' '}
              ·{' '}
              <GameStateLine
                state={hosted.state}
                schedule={hosted.schedule}
                pending={hosted.questions.filter((q) => q.outcome === 'pending' && !q.voided).length}
                live={game.synchronous}
              />
              {hosted.participants > 0 && ` · ${plural(hosted.participants, 'player')}`}
            </>
          )}
        </p>
      </header>
      {/* Once opened, outcomes are what a host comes for: they come first. */}
      {hosted?.locked && <OutcomesPanel game={hosted} questions={series.games[gi]?.questions ?? []} />}
      <ProblemsProvider value={save.placed.byField} saved={season}>
        <form
          className="host-editor"
          aria-labelledby="game-heading"
          noValidate
          onSubmit={(e) => e.preventDefault()}
        >
          <FieldProblems path={at} />
          {editsLocked && (
            <p className="warning" role="alert">
              This game opened while you were editing it. Your changes to its questions, choices, live
              setting, speed bonus, subcommunities and open time were not saved: they are back as they were.
              Your other changes are still here to save.
            </p>
          )}
          <GameSettings
            at={at}
            game={game}
            isNew={isNew}
            locked={locked}
            saved={isNew ? undefined : series.games[gi]!.schedule}
            seriesName={series.name}
            onChange={(patch) => setGame((g) => ({ ...g, ...patch }))}
          />
          <section className="card host-section" aria-labelledby="questions-heading">
            <div className="host-heading-row">
              <h2 id="questions-heading" tabIndex={-1}>
                Questions
              </h2>
              {!locked && (
                // Two toggles, one pressed: each keeps its name, so what is shown reads in words
                // as well as by the pressed style (a toggle whose name changed would read oddly).
                <fieldset className="host-view-switch">
                  <legend className="visually-hidden">Show the questions as</legend>
                  <button type="button" aria-pressed={!preview} onClick={() => setPreview(false)}>
                    Edit
                  </button>
                  <button type="button" aria-pressed={preview} onClick={() => setPreview(true)}>
                    Preview
                  </button>
                </fieldset>
              )}
            </div>
            <FieldProblems path={`${at}.questions`} />
            {locked && (
              <p className="warning" role="note">
                This game opened{hosted ? ` ${formatWhen(hosted.schedule.open)}` : ''}: its questions and
                choices are locked, because players’ answers refer to them. Outcomes and voids are above.
              </p>
            )}
            {locked || preview ? (
              <QuestionPreview game={game} />
            ) : (
              <>
                <ol className="host-questions">
                  {game.questions.map((q, i) => (
                    <QuestionEditor
                      // biome-ignore lint/suspicious/noArrayIndexKey: questions are numbered by place; fields follow their values
                      key={i}
                      at={qAt(i)}
                      index={i}
                      count={count}
                      question={q}
                      game={game}
                      onChange={(next, relinked) => setGame((g) => replaceQuestion(g, i, next, relinked))}
                      onMove={(delta) => move(i, delta)}
                      layout={layout}
                      onRemove={() => {
                        setGame((g) => removeQuestion(g, i));
                        setLayout((n) => n + 1);
                        focusNext.current = 'questions-heading';
                      }}
                    />
                  ))}
                </ol>
                <button
                  type="button"
                  className="button button-secondary"
                  disabled={count >= QUESTIONS_MAX}
                  onClick={() => {
                    setGame((g) => addQuestion(g, 'vote'));
                    focusNext.current = fieldId(qAt(count));
                  }}
                >
                  Add question
                </button>
              </>
            )}
          </section>
          <div className="card host-section host-save-card">
            <SaveBar
              save={save}
              base={{ doc: season, version }}
              build={build}
              part={(doc) => placeIn(doc).stored ?? null}
              saveLabel={isNew ? 'Create game' : 'Save game'}
              confirmSave={isNew ? () => confirmOpeningAtOnce(game.schedule.open) : undefined}
              checkFirst={isNew ? () => closedAlready(at, game.schedule.standby) : undefined}
              conflicts={conflictLines(conflicts, game)}
            />
          </div>
        </form>
      </ProblemsProvider>
      {hosted && !hosted.locked && (
        <DeleteGame
          hosted={hosted}
          name={name}
          onDeleted={async () => {
            // Gone first, then the lists refreshed: a list without the game, on this page, would say
            // the game was deleted elsewhere.
            leave(hostSeriesPath(community, series.endpoint));
            await refresh();
          }}
        />
      )}
    </article>
  );
}
