import type { Season, SeasonImportResult, SeasonProblem } from '@hunch/contract';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { errorText, isApiError } from '../../api/client';
import { useSingleFlight } from '../../shared/single-flight';
import { withLocalTimes } from '../../shared/time-text';
import { askForBlanks } from './blank-fields';
import { fieldId, type PlacedProblems, placeProblems } from './error-paths';
import { fetchSeason, type HostSeason, importSeason, useRefreshHost } from './host-api';
import { plural, saveText } from './host-text';
import { filePlace, pathText } from './path-text';
import { sameValue } from './use-draft';

/**
 * Checking and saving a screen's edits: the whole community document goes to the import (its dry
 * run for 'Check'), and a refusal's problems are placed at the fields this screen shows.
 */
export function useSeasonSave(
  knownFields: readonly string[],
  onSaved?: (result: SeasonImportResult) => void,
) {
  const refresh = useRefreshHost();
  const sendOnce = useSingleFlight();
  const [problems, setProblems] = useState<SeasonProblem[]>([]);
  const [done, setDone] = useState<SeasonImportResult | null>(null);
  // The document the problems are about: it names the series and games their paths point into.
  const [sent, setSent] = useState<Season | null>(null);
  const mutation = useMutation({
    mutationFn: ({ target, dryRun }: SaveRequest) => importOver(target, dryRun),
    onMutate: () => setDone(null),
    // Another tab or host changed what this screen edits (412): the screen now shows their version,
    // and the host's own edits stay in the draft (useDraft) to be checked and saved again.
    onError: async (err, { target, found }) => {
      // A refusal in a sentence answers this document: the problems of an earlier one are gone.
      // The screen's own stay, named in the document they are about.
      setSent(target.build(target.base.doc));
      setProblems(found);
      if (isApiError(err, 412)) await refresh();
    },
    onSuccess: async ({ outcome, doc }, { dryRun, found }) => {
      if (!outcome.ok || found.length > 0) {
        setSent(doc);
        setProblems(askForBlanks([...found, ...(outcome.ok ? [] : outcome.problems)], doc));
        return;
      }
      setProblems([]);
      setDone(outcome.result);
      if (!dryRun) {
        await refresh();
        onSaved?.(outcome.result);
      }
    },
  });
  const placed = useMemo(() => placeProblems(problems, knownFields), [problems, knownFields]);
  return {
    placed,
    sent,
    done,
    mutation,
    /**
     * A check (the import's dry run). `found`: problems the screen found itself, listed with the
     * server's, so one mistake the screen catches does not hide the others until it is mended.
     */
    check: (target: SaveTarget, found: SeasonProblem[] = []) =>
      sendOnce(() => mutation.mutateAsync({ target, dryRun: true, found })),
    save: (target: SaveTarget) => sendOnce(() => mutation.mutateAsync({ target, dryRun: false, found: [] })),
  };
}

export type SeasonSave = ReturnType<typeof useSeasonSave>;

interface SaveRequest {
  target: SaveTarget;
  dryRun: boolean;
  /** Problems the screen found before sending: the request is then a check, never a save. */
  found: SeasonProblem[];
}

/** What a screen saves: its edits laid over a version of the community's document. */
export interface SaveTarget {
  /** The document the screen shows, with its version (none for a community not made yet). */
  base: HostSeason;
  /** The whole document with this screen's edits laid over `doc`; null: nothing to send yet. */
  build: (doc: Season) => Season | null;
  /** What this screen edits, as `doc` holds it. */
  part: (doc: Season) => unknown;
}

/**
 * Imports a screen's edits over the version it shows. Refused because the community changed since
 * (412), the edits go again over the newest version when what this screen edits did not change:
 * the live demo adds a game to Hunch HQ every few minutes, another host edits another game, and
 * neither is a conflict. The server checks the version again under its lock.
 */
async function importOver({ base, build, part }: SaveTarget, dryRun: boolean) {
  const doc = build(base.doc);
  if (!doc) throw new Error('Nothing to send yet');
  try {
    return { outcome: await importSeason(doc, dryRun, base.version), doc };
  } catch (err) {
    if (!isApiError(err, 412) || typeof base.version !== 'string') throw err;
    const latest = await fetchSeason(base.doc.community.endpoint);
    const again = sameValue(part(latest.doc), part(base.doc)) ? build(latest.doc) : null;
    if (!again) throw err;
    return { outcome: await importSeason(again, dryRun, latest.version), doc: again };
  }
}

/** Where a problem is: in words, then its path in the document (which a season file shares). */
export function ProblemPlace({
  problem,
  doc,
  lines = true,
}: {
  problem: SeasonProblem;
  doc?: unknown;
  /** Line and column: of a file the host wrote, not of the document an editor screen sent. */
  lines?: boolean;
}) {
  const place = filePlace(problem, lines);
  return (
    <span className="host-problem-place">
      <span>{pathText(problem.path, doc)}</span>{' '}
      <span className="host-problem-path">
        {place.path && <code>{place.path}</code>}
        {place.path && place.line && ' '}
        {place.line}
      </span>
    </span>
  );
}

/** Every problem of a refused document, each linking to the field that shows it. */
export function ProblemList({
  placed,
  title,
  doc,
}: {
  placed: PlacedProblems;
  title: string;
  /** The document sent, to name the places of its problems. */
  doc?: Season | null;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  const count = placed.placed.length + placed.elsewhere.length;
  // Keyboard and screen reader users are taken to the list, which links to each field.
  useEffect(() => {
    if (count > 0) heading.current?.focus();
  }, [count]);
  if (count === 0) return null;
  return (
    <div className="host-problems" role="alert">
      <h3 ref={heading} tabIndex={-1}>
        {title}: {plural(count, 'problem')}
      </h3>
      <ul>
        {placed.placed.map(({ problem, field }) => (
          <li key={`${problem.path}:${problem.message}`}>
            <a href={`#${fieldId(field)}`}>{withLocalTimes(problem.message)}</a>{' '}
            <ProblemPlace problem={problem} doc={doc ?? undefined} lines={false} />
          </li>
        ))}
        {placed.elsewhere.map((p) => (
          <li key={`${p.path}:${p.message}`}>
            <span>{withLocalTimes(p.message)}</span>{' '}
            <ProblemPlace problem={p} doc={doc ?? undefined} lines={false} />
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The places a newer save changed that the host had changed too (useDraft's conflicts, in words):
 * the host's values were kept, and a save now overwrites theirs, so the host is told before.
 */
function Conflicts({ lines }: { lines: readonly string[] }) {
  if (lines.length === 0) return null;
  return (
    <div className="warning" role="alert">
      <p>The other save changed these too. Yours are kept here, and saving keeps them. Theirs were:</p>
      <ul>
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </div>
  );
}

/** 'Check' and 'Save' for a screen's edits, with what the server answered. */
export function SaveBar({
  save,
  base,
  build,
  part,
  saveLabel = 'Save',
  disabled,
  confirmSave,
  checkFirst,
  conflicts = [],
}: {
  save: SeasonSave;
} & SaveTarget & {
    saveLabel?: string;
    disabled?: boolean;
    /** Asked before a save (not a check): false keeps the edits unsent. */
    confirmSave?: () => boolean;
    /** Problems the screen can tell before sending: any, and the edits are only checked, not saved. */
    checkFirst?: (doc: Season) => SeasonProblem[];
    /** Where the draft was kept over a newer save's (conflictLines). */
    conflicts?: readonly string[];
  }) {
  const { mutation, done, placed, sent } = save;
  const send = (dryRun: boolean) => {
    const doc = build(base.doc);
    if (!doc) return;
    const target = { base, build, part };
    const found = checkFirst?.(doc) ?? [];
    // Not saved: checked, for the server's problems to stand beside the screen's own.
    if (found.length > 0) return save.check(target, found);
    if (!dryRun && confirmSave && !confirmSave()) return;
    (dryRun ? save.check : save.save)(target);
  };
  return (
    <div className="host-save">
      <ProblemList placed={placed} title="Not saved" doc={sent} />
      {mutation.isError && (
        <p className="form-error" role="alert">
          {withLocalTimes(errorText(mutation.error))}
        </p>
      )}
      <Conflicts lines={conflicts} />
      <div className="host-save-bar">
        <button
          type="button"
          className="button button-secondary"
          disabled={disabled || mutation.isPending}
          onClick={() => send(true)}
        >
          Check
        </button>
        <button
          type="submit"
          className="button button-primary"
          disabled={disabled || mutation.isPending}
          aria-busy={mutation.isPending}
          onClick={(e) => {
            e.preventDefault();
            send(false);
          }}
        >
          {saveLabel}
        </button>
        <p className="host-save-status" role="status">
          {mutation.isPending ? 'Sending…' : done && saveText(done)}
        </p>
      </div>
    </div>
  );
}
