import type { Profile } from '@hunch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { errorText } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { bumpImageVersion } from '../../shared/image-version';
import { setProfileVisibility, uploadProfileImage } from './account-api';
import { IMAGE_ACCEPT, imageProblem } from './image-picker';

const UPLOAD_CONFIRM = 'Upload new profile image? This will replace your old one.';

/** What each choice does, said beside it (DESIGN §2: private profiles show username and image only). */
const VISIBILITY = [
  {
    label: 'Public',
    value: false,
    effect:
      'Players who are logged in can open your profile from leaderboards and see your communities, community ranks and game history.',
  },
  {
    label: 'Private',
    value: true,
    effect:
      'Others see only your username and picture. You stay on leaderboards, without a link to your profile.',
  },
] as const;

/** The owner's edit controls: visibility (saved as soon as it is picked) and a new profile image. */
export function ProfileEdit({ profile }: { profile: Profile }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [fileError, setFileError] = useState<string | null>(null);
  // Held locally and set in the change handler itself, so the radio reflects the click at once
  // (the mutation's pending state arrives a tick later, and React would briefly undo the click).
  const [chosenPrivate, setChosenPrivate] = useState(profile.isPrivate);

  const visibility = useMutation({
    mutationFn: setProfileVisibility,
    onError: () => setChosenPrivate(profile.isPrivate),
    onSuccess: (_, isPrivate) => {
      queryClient.setQueryData<Profile | null>(queryKeys.profile, (p) => (p ? { ...p, isPrivate } : p));
      return queryClient.invalidateQueries({ queryKey: queryKeys.profile });
    },
  });

  const upload = useMutation({
    mutationFn: uploadProfileImage,
    onSuccess: (updated) => {
      bumpImageVersion();
      queryClient.setQueryData(queryKeys.profile, updated);
      return queryClient.invalidateQueries({ queryKey: queryKeys.profile });
    },
  });

  const onFile = (input: HTMLInputElement) => {
    const file = input.files?.[0];
    // Clearing the input lets the same file be picked again after a cancel or an error.
    input.value = '';
    if (!file) return;
    // A new choice: what the last upload said no longer stands.
    upload.reset();
    const problem = imageProblem(file);
    if (problem) return setFileError(problem);
    setFileError(null);
    if (window.confirm(UPLOAD_CONFIRM)) upload.mutate(file);
  };

  const uploadMessage = fileError ?? (upload.isError ? errorText(upload.error) : null);

  return (
    <div className="card profile-edit">
      <fieldset className="field radio-group visibility-group">
        <legend>Profile visibility</legend>
        <div className="visibility-options">
          {VISIBILITY.map((option) => (
            <label key={option.label} className="radio visibility-option">
              <input
                type="radio"
                name={`${id}-visibility`}
                checked={chosenPrivate === option.value}
                // Named by its label alone ('Public'), described by what it does.
                aria-labelledby={`${id}-${option.label}-label`}
                aria-describedby={`${id}-${option.label}`}
                onChange={() => {
                  setChosenPrivate(option.value);
                  visibility.mutate(option.value);
                }}
              />
              <span className="visibility-text">
                <span className="visibility-label" id={`${id}-${option.label}-label`}>
                  {option.label}
                </span>
                <span className="visibility-effect" id={`${id}-${option.label}`}>
                  {option.effect}
                </span>
              </span>
            </label>
          ))}
        </div>
        <p className="field-message" aria-live="polite">
          {visibility.isPending
            ? 'Saving…'
            : visibility.isSuccess
              ? `Saved: your profile is ${chosenPrivate ? 'private' : 'public'}.`
              : ''}
        </p>
        {visibility.isError && (
          <p className="form-error" role="alert">
            {errorText(visibility.error)}
          </p>
        )}
      </fieldset>
      <div className="field">
        <label htmlFor={`${id}-image`}>Upload profile image</label>
        <input
          id={`${id}-image`}
          type="file"
          accept={IMAGE_ACCEPT}
          disabled={upload.isPending}
          aria-invalid={uploadMessage !== null}
          aria-describedby={`${id}-image-message`}
          onChange={(e) => onFile(e.currentTarget)}
        />
        <p className="field-message" id={`${id}-image-message`} aria-live="polite">
          {upload.isPending
            ? 'Uploading…'
            : (uploadMessage ?? (upload.isSuccess ? 'Profile image updated.' : null))}
        </p>
      </div>
    </div>
  );
}
