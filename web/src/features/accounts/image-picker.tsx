import { useEffect, useId, useState } from 'react';
import { userImageUrl } from '../../api/asset-urls';
import { SafeImg } from '../../shared/safe-img';

export const IMAGE_ACCEPT = 'image/png,image/jpeg';

/** Spec §5: JPEG or PNG, recognised by a type containing "image" (the server checks the bytes). */
export function isAcceptedImage(file: File): boolean {
  return file.type.includes('image') && IMAGE_ACCEPT.split(',').includes(file.type);
}

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
  const [preview, setPreview] = useState<string | null>(null);

  useEffect(() => {
    if (!file) {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  return (
    <div className="field image-picker">
      <SafeImg className="avatar avatar-large" src={preview ?? userImageUrl(null)} alt="" />
      <div className="image-picker-controls">
        <label htmlFor={id}>Profile image (optional)</label>
        <input
          id={id}
          type="file"
          accept={IMAGE_ACCEPT}
          aria-invalid={error !== null}
          aria-describedby={`${id}-message`}
          onChange={(e) => {
            const chosen = e.target.files?.[0] ?? null;
            if (chosen && !isAcceptedImage(chosen)) {
              setError('Choose a JPEG or PNG image.');
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
