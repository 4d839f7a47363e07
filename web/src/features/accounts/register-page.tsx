import { USERNAME_MAX } from '@hunch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { errorText } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { useProfile } from '../../api/use-profile';
import { useSingleFlight } from '../../shared/single-flight';
import { useDocumentTitle } from '../../shared/use-document-title';
import { startWelcome } from '../../shared/welcome-flag';
import { register } from './account-api';
import { AuthNav } from './auth-nav';
import { CheckedField } from './checked-field';
import { canSignUp } from './field-states';
import { GenderField } from './gender-field';
import { ImagePicker } from './image-picker';
import { type GenderChoice, registrationForm } from './registration-form';
import { useConfirmState, useFieldCheck, useLocalFieldCheck } from './use-field-check';
import { useRegistrationChecks } from './use-registration-checks';

const CHECK_KEY = queryKeys.registrationCheck('', '')[0];

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

  const checks = useRegistrationChecks();
  const usernameState = useFieldCheck('username', username, checks?.username ?? null);
  const emailState = useFieldCheck('email', email, checks?.email ?? null);
  const zipcodeState = useFieldCheck('zipcode', zipcode, checks?.zipcode ?? null);
  const dobState = useFieldCheck('DoB', dob, checks?.DoB ?? null);
  const passwordCheck = checks?.password ?? null;
  const passwordState = useLocalFieldCheck(password, passwordCheck);
  const confirmState = useConfirmState(password, confirm);
  const allConfirmed = canSignUp(
    [usernameState, emailState, zipcodeState, dobState],
    passwordCheck,
    password,
    confirm,
  );

  const sendOnce = useSingleFlight();
  const signUp = useMutation({
    // The form as this render holds it, passed in when sent: a function reading the state would be
    // the last render's but one until the mutation's options catch up after the paint.
    mutationFn: (form: FormData) => register(form),
    onSuccess: (profile) => {
      // The field checks still watch their queries until this page goes: removed now, they would
      // ask again and hear that the new username is taken. They go when the page does (below).
      const keep: unknown[] = [queryKeys.profile[0], CHECK_KEY];
      queryClient.removeQueries({ predicate: (q) => !keep.includes(q.queryKey[0]) });
      queryClient.setQueryData(queryKeys.profile, profile);
      startWelcome(profile.username);
      navigate('/communities', { replace: true });
    },
    // A refusal may come from a value that changed since its check (a username taken meanwhile):
    // the fields are asked again, so the one at fault turns pink and Sign Up waits for it.
    // Not awaited: the refusal shows at once, the checks come after.
    onError: () => {
      void queryClient.invalidateQueries({ queryKey: [CHECK_KEY] });
    },
  });

  // Checks answered for this form say nothing about a later one (a value free now may be taken).
  useEffect(() => () => queryClient.removeQueries({ queryKey: [CHECK_KEY] }), [queryClient]);

  // Someone already logged in has no account to make: on to the communities (not while this page's
  // own sign-up finishes: it navigates itself).
  const profile = useProfile();
  if (profile && signUp.isIdle) return <Navigate to="/communities" replace />;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!allConfirmed) {
      // Sign Up stays in the tab order (aria-disabled): pressed early, it shows the field that waits.
      const fields = [...event.currentTarget.querySelectorAll<HTMLInputElement>('input[required]')];
      fields.find((f) => f.getAttribute('aria-invalid') === 'true' || f.value === '')?.focus();
      return;
    }
    const form = registrationForm({ username, password, email, zipcode, dob, gender, image });
    sendOnce(() => signUp.mutateAsync(form));
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
          <ImagePicker
            file={image}
            onChange={(file) => {
              // The last sign-up's refusal of the image is not about this one.
              setImage(file);
              signUp.reset();
            }}
          />
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
            aria-disabled={!allConfirmed || signUp.isPending}
            aria-busy={signUp.isPending}
            aria-describedby={allConfirmed ? undefined : `${id}-sign-up-waits`}
          >
            Sign Up
          </button>
          {!allConfirmed && (
            <p className="visually-hidden" id={`${id}-sign-up-waits`}>
              Opens once every field above is filled in and checked.
            </p>
          )}
        </form>
      </section>
    </>
  );
}
