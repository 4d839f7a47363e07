import { PROFILE_IMAGE_MAX_BYTES } from '@hunch/contract';
import { useEffect, useId, useRef, useState } from 'react';
import { userImageUrl } from '../../api/asset-urls';
import { SafeImg } from '../../shared/safe-img';

export const IMAGE_ACCEPT = 'image/png,image/jpeg';

/** Spec §5: JPEG or PNG, recognised by a type containing "image" (the server checks the bytes). */
export function isAcceptedImage(file: File): boolean {
  return file.type.includes('image') && IMAGE_ACCEPT.split(',').includes(file.type);
}

/**
 * Why a picked profile image cannot go (null when it can), said before it is sent: at sign-up as
 * on the profile, so a 9 MB photo is not uploaded only to be refused.
 */
export function imageProblem(file: File): string | null {
  if (!isAcceptedImage(file)) return 'Choose a JPEG or PNG image.';
  if (file.size > PROFILE_IMAGE_MAX_BYTES) return 'That image is too large (5 MB at most).';
  return null;
}

/** Said when the preview cannot show a file whose name and type said picture (a renamed text file). */
export const NOT_A_PICTURE = 'That file is not a picture this browser can open: choose a JPEG or PNG image.';

/** The optional profile image of the registration form, with a preview of the chosen file. */
export function ImagePicker({
  file,
  onChange,
}: {
  file: File | null;
  onChange: (file: File | null) => void;
}) {
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  const [preview, setPreview] = useState<{ url: string; of: File } | null>(null);
  const input = useRef<HTMLInputElement>(null);
  // The file chosen now: a preview's late error about an earlier choice must not refuse this one.
  const chosen = useRef(file);
  chosen.current = file;

  useEffect(() => {
    if (!file) {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(file);
    setPreview({ url, of: file });
    return () => URL.revokeObjectURL(url);
  }, [file]);

  return (
    <div className="field image-picker">
      {preview ? (
        // The preview is the first to open the file: a file it cannot show is refused here, at once,
        // not by the server after Sign Up (which checks the bytes all the same).
        <img
          key={preview.url}
          className="avatar avatar-large"
          src={preview.url}
          alt=""
          onError={() => {
            if (chosen.current !== preview.of) return;
            setError(NOT_A_PICTURE);
            if (input.current) input.current.value = '';
            onChange(null);
          }}
        />
      ) : (
        <SafeImg className="avatar avatar-large" src={userImageUrl(null)} alt="" />
      )}
      <div className="image-picker-controls">
        <label htmlFor={id}>Profile image (optional)</label>
        <input
          id={id}
          ref={input}
          type="file"
          accept={IMAGE_ACCEPT}
          aria-invalid={error !== null}
          aria-describedby={`${id}-message`}
          onChange={(e) => {
            const chosen = e.target.files?.[0] ?? null;
            const problem = chosen && imageProblem(chosen);
            if (problem) {
              setError(problem);
              e.target.value = '';
              onChange(null);
              return;
            }
            setError(null);
            onChange(chosen);
          }}
        />
        <p className="field-message" id={`${id}-message`} aria-live="polite">
          {error}
        </p>
      </div>
    </div>
  );
}
