import { httpRoutes, routeUrl, type SeasonImportResult } from '@hunch/contract';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { errorText } from '../../api/client';
import { useSingleFlight } from '../../shared/single-flight';
import { withLocalTimes } from '../../shared/time-text';
import { type ImportOutcome, importSeason, useRefreshHost } from './host-api';
import { importSummary, plural } from './host-text';
import { ProblemPlace } from './save-bar';

function Counts({ result }: { result: SeasonImportResult }) {
  return (
    <div className="host-result" role="status">
      <p>{result.dry_run ? 'Checked: no problems. Nothing was written yet.' : 'Imported.'}</p>
      <ul>
        {importSummary(result).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </div>
  );
}

/**
 * Import a season file (.yaml, .json or a .zip with its images), checking it first if the host
 * likes, and export the community's document (hosting spec §4).
 */
export function ImportPanel({ community }: { community: string }) {
  const refresh = useRefreshHost();
  const [file, setFile] = useState<File | null>(null);
  const [answer, setAnswer] = useState<ImportOutcome | null>(null);
  const sendOnce = useSingleFlight();
  const run = useMutation({
    mutationFn: (dryRun: boolean) => importSeason(file!, dryRun, undefined, community),
    onMutate: () => setAnswer(null),
    onSuccess: async (outcome) => {
      setAnswer(outcome);
      if (outcome.ok && !outcome.result.dry_run) await refresh();
    },
  });
  return (
    <section className="card host-section" aria-labelledby="import-heading">
      <h2 id="import-heading">Import and export</h2>
      <div className="field">
        <label htmlFor="season-file">Season file</label>
        <p className="field-hint" id="season-file-hint">
          A .yaml or .json season file, or a .zip with season.yaml and its images. Games are matched by their
          keys: importing the same file twice changes nothing.
        </p>
        {/* Drawn as the image pickers are: the input hidden, its second label a button. */}
        <div className="host-image-actions">
          <input
            id="season-file"
            className="visually-hidden host-file-input"
            type="file"
            accept=".yaml,.yml,.json,.zip,application/zip,application/json,application/yaml"
            aria-describedby="season-file-status season-file-hint"
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setAnswer(null);
            }}
          />
          <label htmlFor="season-file" className="button button-secondary host-small-button host-file-button">
            {file ? 'Choose another file' : 'Choose a file'}
          </label>
          <span className="field-hint" id="season-file-status">
            {file ? file.name : 'No file chosen.'}
          </span>
        </div>
      </div>
      <div className="host-save-bar">
        <button
          type="button"
          className="button button-secondary"
          disabled={!file || run.isPending}
          onClick={() => sendOnce(() => run.mutateAsync(true))}
        >
          Check
        </button>
        <button
          type="button"
          className="button button-primary"
          disabled={!file || run.isPending}
          onClick={() => sendOnce(() => run.mutateAsync(false))}
        >
          Import
        </button>
        {run.isPending && (
          <p className="host-save-status" role="status">
            Sending…
          </p>
        )}
      </div>
      {run.isError && (
        <p className="form-error" role="alert">
          {errorText(run.error)}
        </p>
      )}
      {answer?.ok && <Counts result={answer.result} />}
      {answer && !answer.ok && (
        <div className="host-problems" role="alert">
          <h3>Not imported: {plural(answer.problems.length, 'problem')}</h3>
          <ul>
            {answer.problems.map((p) => (
              <li key={`${p.path}:${p.message}`}>
                <span>{withLocalTimes(p.message, { keepUtc: true })}</span> <ProblemPlace problem={p} />
              </li>
            ))}
          </ul>
        </div>
      )}
      <p>
        <a
          className="button button-secondary"
          href={routeUrl(httpRoutes.seasonExport, { community })}
          download={`${community}.yaml`}
        >
          Export season (YAML)
        </a>
      </p>
    </section>
  );
}
