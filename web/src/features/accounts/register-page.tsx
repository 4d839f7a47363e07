import {
  accountMessages,
  type CheckField,
  dateOfBirthSchema,
  emailSchema,
  FIELD_CHECK_DEBOUNCE_MS,
  passwordSchema,
  USERNAME_MAX,
  usernameSchema,
  zipcodeSchema,
} from '@hunch/contract';
import { isInFuture, isOldEnough } from '@hunch/rules';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { errorText } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { useDebouncedValue } from '../../shared/use-debounced-value';
import { useDocumentTitle } from '../../shared/use-document-title';
import { register } from './account-api';
import { AuthNav } from './auth-nav';
import { CheckedField } from './checked-field';
import { type GenderChoice, GenderField, genderValue } from './gender-field';
import { ImagePicker } from './image-picker';
import { type FieldState, type LocalCheck, useFieldCheck, useLocalFieldCheck } from './use-field-check';

const CHECK_KEY = queryKeys.registrationCheck('', '')[0];

/** A contract schema as a local check: its first issue message, or null when the value passes. */
function schemaCheck(schema: {
  safeParse: (v: unknown) => { success: boolean; error?: { issues: { message: string }[] } };
}): LocalCheck {
  return (value) => {
    const result = schema.safeParse(value);
    return result.success ? null : (result.error?.issues[0]?.message ?? 'Invalid value');
  };
}

const checks: Record<CheckField | 'password', LocalCheck> = {
  username: schemaCheck(usernameSchema),
  email: schemaCheck(emailSchema),
  zipcode: schemaCheck(zipcodeSchema),
  DoB: (value) =>
    schemaCheck(dateOfBirthSchema)(value) ??
    (isInFuture(value, new Date()) ? accountMessages.dobInvalid : null) ??
    (isOldEnough(value, new Date()) ? null : accountMessages.tooYoung),
  password: schemaCheck(passwordSchema),
};

const MISMATCH = 'Password fields must match.';

/**
 * The confirm field turns pink on a mismatch: at once when it can no longer become a match (it is not
 * a prefix of the password), otherwise after the usual pause, so it does not flash while typing.
 */
function useConfirmState(password: string, confirm: string): FieldState {
  const settled = useDebouncedValue(confirm, FIELD_CHECK_DEBOUNCE_MS);
  if (confirm === '') return { status: 'idle', message: null };
  if (confirm === password) return { status: password ? 'valid' : 'idle', message: null };
  if (!password.startsWith(confirm) || settled === confirm) return { status: 'invalid', message: MISMATCH };
  return { status: 'idle', message: null };
}

export function RegisterPage() {
  useDocumentTitle('Sign Up');
  const id = useId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [email, setEmail] = useState('');
  const [zipcode, setZipcode] = useState('');
  const [dob, setDob] = useState('');
  const [gender, setGender] = useState<GenderChoice>({ choice: '', specified: '' });
  const [image, setImage] = useState<File | null>(null);

  const usernameState = useFieldCheck('username', username, checks.username);
  const emailState = useFieldCheck('email', email, checks.email);
  const zipcodeState = useFieldCheck('zipcode', zipcode, checks.zipcode);
  const dobState = useFieldCheck('DoB', dob, checks.DoB);
  const passwordState = useLocalFieldCheck(password, checks.password);
  const confirmState = useConfirmState(password, confirm);

  const passwordsOk = checks.password(password) === null && password === confirm;
  const allConfirmed =
    usernameState.status === 'valid' &&
    emailState.status === 'valid' &&
    zipcodeState.status === 'valid' &&
    dobState.status === 'valid' &&
    passwordsOk;

  const signUp = useMutation({
    mutationFn: () => {
      const form = new FormData();
      form.set('username', username);
      form.set('password', password);
      form.set('email', email);
      form.set('zipcode', zipcode);
      form.set('date_of_birth', dob);
      const g = genderValue(gender);
      if (g) form.set('gender', g);
      if (image) form.set('profile_img', image);
      return register(form);
    },
    onSuccess: (profile) => {
      // The field checks still watch their queries until this page goes: removed now, they would
      // ask again and hear that the new username is taken. They go when the page does (below).
      const keep: unknown[] = [queryKeys.profile[0], CHECK_KEY];
      queryClient.removeQueries({ predicate: (q) => !keep.includes(q.queryKey[0]) });
      queryClient.setQueryData(queryKeys.profile, profile);
      navigate('/communities', { replace: true });
    },
  });

  // Checks answered for this form say nothing about a later one (a value free now may be taken).
  useEffect(() => () => queryClient.removeQueries({ queryKey: [CHECK_KEY] }), [queryClient]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (allConfirmed && !signUp.isPending) signUp.mutate();
  };

  const today = new Date().toISOString().slice(0, 10);

  return (
    <>
      <AuthNav />
      <section className="page page-narrow auth-page">
        <h1>Create your account</h1>
        <form className="card form" onSubmit={onSubmit} aria-label="Sign up" noValidate>
          <CheckedField
            id={`${id}-username`}
            label="Username"
            hint={`6-${USERNAME_MAX} letters, digits or underscores.`}
            value={username}
            onValueChange={setUsername}
            state={usernameState}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            required
          />
          <CheckedField
            id={`${id}-password`}
            label="Password"
            hint="6-20 characters: letters, digits or ? ! @ # $ % ^ & * ( ) + ="
            type="password"
            value={password}
            onValueChange={setPassword}
            state={passwordState}
            autoComplete="new-password"
            required
          />
          <CheckedField
            id={`${id}-confirm`}
            label="Confirm password"
            type="password"
            value={confirm}
            onValueChange={setConfirm}
            state={confirmState}
            autoComplete="new-password"
            required
          />
          <CheckedField
            id={`${id}-email`}
            label="Email"
            type="email"
            value={email}
            onValueChange={setEmail}
            state={emailState}
            autoComplete="email"
            inputMode="email"
            required
          />
          <CheckedField
            id={`${id}-zipcode`}
            label="Zipcode"
            hint="5 digits; it places you in your local geo-group."
            value={zipcode}
            onValueChange={setZipcode}
            state={zipcodeState}
            autoComplete="postal-code"
            inputMode="numeric"
            maxLength={5}
            required
          />
          <CheckedField
            id={`${id}-dob`}
            label="Date of birth"
            hint="You must be 12 or older."
            type="date"
            value={dob}
            onValueChange={setDob}
            state={dobState}
            autoComplete="bday"
            max={today}
            required
          />
          <GenderField value={gender} onChange={setGender} />
          <ImagePicker file={image} onChange={setImage} />
          <p className="warning" role="note">
            Double-check account details! Account details currently cannot be changed or recovered.
          </p>
          {signUp.isError && (
            <p className="form-error" role="alert">
              {errorText(signUp.error)}
            </p>
          )}
          <button
            className="button button-primary button-block"
            type="submit"
            disabled={!allConfirmed || signUp.isPending}
            aria-busy={signUp.isPending}
          >
            Sign Up
          </button>
        </form>
      </section>
    </>
  );
}
