import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { communityImageUrl, gameImageUrl, questionImageUrl } from '../../api/asset-urls';
import { errorText } from '../../api/client';
import { SafeImg } from '../../shared/safe-img';
import { errorIdOf, fieldId } from './error-paths';
import { FieldProblems, useFieldProblems, useSavedValue } from './fields';
import { type ImageKind, uploadImage } from './host-api';

const URL_OF: Record<ImageKind, (name: string) => string> = {
  communities: communityImageUrl,
  games: gameImageUrl,
  questions: questionImageUrl,
};

/** 'Question image (optional)' -> 'the current question image': the thumbnail's alt text. */
function currentImageText(label: string): string {
  const plain = label.replace(/\s*\(optional\)$/i, '');
  return `The current ${plain.charAt(0).toLowerCase()}${plain.slice(1)}`;
}

/**
 * An image of the document, shown as a thumbnail: the chosen file is uploaded at once (POST
 * /api/host/image, which checks and re-encodes it) and the stored name goes into the document's
 * field. That name means nothing to a host, so it is not shown. The file input is drawn as a
 * button (its label), which says what it does: choose, change or add an image.
 */
export function ImageField({
  path,
  label,
  kind,
  value,
  onChange,
  disabled,
  compact,
  extra,
}: {
  path: string;
  label: string;
  kind: ImageKind;
  value: string | undefined;
  onChange: (name: string | undefined) => void;
  disabled?: boolean;
  /** Beside a choice: a smaller thumbnail, links for buttons, and only 'Add image' until there is one. */
  compact?: boolean;
  /** More buttons after the image's own, in their row (a choice's 'Remove choice'). */
  extra?: ReactNode;
}) {
  const saved = useSavedValue(path);
  const id = fieldId(path);
  const upload = useMutation({ mutationFn: (file: File) => uploadImage(kind, file), onSuccess: onChange });
  const invalid = useFieldProblems(path).length > 0 || upload.isError;
  const statusId = `${id}-status`;
  const bare = compact && !value;
  const status = upload.isPending
    ? 'Uploading…'
    : upload.isError
      ? `Not uploaded: ${errorText(upload.error)}`
      : value
        ? // The document names the image only once it is saved: until then, the upload is not kept.
          upload.isSuccess && value !== saved
          ? 'Uploaded: save to keep it.'
          : ''
        : bare
          ? ''
          : 'No image yet. JPEG or PNG.';
  return (
    <div className={`field host-image ${compact ? 'host-image-compact' : ''} ${invalid ? 'is-invalid' : ''}`}>
      {value ? (
        <SafeImg className="host-image-preview" src={URL_OF[kind](value)} alt={currentImageText(label)} />
      ) : (
        !bare && <span className="host-image-preview host-image-none" aria-hidden="true" />
      )}
      <div className="host-image-controls">
        {/* The input's own label is the button below, which names the field in hidden words. Beside
            a choice the choice names it: a line less, for its buttons to share a row on a phone. */}
        {!compact && <span className="host-image-label">{label}</span>}
        <p className="field-hint" id={statusId} aria-live="polite">
          {status}
        </p>
        <div className="host-image-actions">
          <input
            id={id}
            className="visually-hidden host-file-input"
            type="file"
            accept="image/png,image/jpeg"
            disabled={disabled || upload.isPending}
            aria-invalid={invalid}
            aria-describedby={`${statusId} ${errorIdOf(path)}`}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) upload.mutate(file);
            }}
          />
          <label
            htmlFor={id}
            className={
              compact ? 'host-file-link' : 'button button-secondary host-small-button host-file-button'
            }
          >
            {value ? 'Change image' : bare ? 'Add image' : 'Choose image'}
            <span className="visually-hidden"> ({label})</span>
          </label>
          {value && !disabled && (
            <button type="button" className="button-link" onClick={() => onChange(undefined)}>
              Remove image<span className="visually-hidden"> ({label})</span>
            </button>
          )}
          {extra}
        </div>
        <FieldProblems path={path} />
      </div>
    </div>
  );
}
