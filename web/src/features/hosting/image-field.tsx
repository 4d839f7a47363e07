import { useMutation } from '@tanstack/react-query';
import { communityImageUrl, gameImageUrl, questionImageUrl } from '../../api/asset-urls';
import { errorText } from '../../api/client';
import { SafeImg } from '../../shared/safe-img';
import { errorIdOf, fieldId } from './error-paths';
import { FieldProblems, useFieldProblems } from './fields';
import { type ImageKind, uploadImage } from './host-api';

const URL_OF: Record<ImageKind, (name: string) => string> = {
  communities: communityImageUrl,
  games: gameImageUrl,
  questions: questionImageUrl,
};

/**
 * An image of the document: the chosen file is uploaded at once (POST /api/host/image, which
 * checks and re-encodes it) and the stored name goes into the document's field.
 */
export function ImageField({
  path,
  label,
  kind,
  value,
  onChange,
  disabled,
  compact,
}: {
  path: string;
  label: string;
  kind: ImageKind;
  value: string | undefined;
  onChange: (name: string | undefined) => void;
  disabled?: boolean;
  /** Beside a choice: a smaller preview. */
  compact?: boolean;
}) {
  const id = fieldId(path);
  const upload = useMutation({ mutationFn: (file: File) => uploadImage(kind, file), onSuccess: onChange });
  const invalid = useFieldProblems(path).length > 0 || upload.isError;
  const statusId = `${id}-status`;
  return (
    <div className={`field host-image ${compact ? 'host-image-compact' : ''} ${invalid ? 'is-invalid' : ''}`}>
      {value ? (
        <SafeImg className="host-image-preview" src={URL_OF[kind](value)} alt="" />
      ) : (
        <span className="host-image-preview host-image-none" aria-hidden="true" />
      )}
      <div className="host-image-controls">
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
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
        <p className="field-hint" id={statusId} aria-live="polite">
          {upload.isPending
            ? 'Uploading…'
            : upload.isError
              ? `Not uploaded: ${errorText(upload.error)}`
              : value
                ? `Image: ${value}`
                : 'No image. JPEG or PNG.'}
        </p>
        {value && !disabled && (
          <button type="button" className="button-link" onClick={() => onChange(undefined)}>
            Remove image<span className="visually-hidden"> ({label})</span>
          </button>
        )}
        <FieldProblems path={path} />
      </div>
    </div>
  );
}
