import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { errorText } from '../../api/client';
import { startCacheOver } from '../../api/session-cache';
import { useProfile } from '../../api/use-profile';
import { Loading } from '../../shared/loading';
import { useSingleFlight } from '../../shared/single-flight';
import { useDocumentTitle } from '../../shared/use-document-title';
import { logIn } from './account-api';
import { AuthNav } from './auth-nav';
import { returnTarget } from './return-target';

export function LoginPage() {
  useDocumentTitle();
  const id = useId();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');

  const sendOnce = useSingleFlight();
  const login = useMutation({
    mutationFn: (sent: { username: string; password: string }) => logIn(sent.username, sent.password),
    onSuccess: async (profile) => {
      // Whatever was cached belonged to the anonymous visitor (joined flags, ranks...).
      await queryClient.cancelQueries();
      startCacheOver(queryClient, profile);
      navigate(returnTarget(params.get('returnto')), { replace: true });
    },
  });

  // What the fields hold as the form is sent, read from the form itself: a password manager (or a
  // quick Enter) fills a field and submits before the page has rendered the new value, and a value
  // kept from the last render would send the password short of its last key.
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const fields = new FormData(event.currentTarget);
    const sent = {
      username: String(fields.get('username') ?? ''),
      password: String(fields.get('password') ?? ''),
    };
    sendOnce(() => login.mutateAsync(sent));
  };

  // Someone already logged in has nothing to do here: on to where the link meant to take them
  // (/communities without a returnto). Not while this page's own login finishes: it navigates itself.
  const profile = useProfile();
  if (profile && login.isIdle) return <Navigate to={returnTarget(params.get('returnto'))} replace />;
  // A link on to somewhere (a share link goes by here) waits to know who is signed in: one who is
  // would see the form flash before going on.
  if (profile === undefined && params.has('returnto')) return <Loading />;

  return (
    <>
      <AuthNav />
      <section className="page page-narrow auth-page">
        <h1>Log in to Hunch</h1>
        {login.isError && (
          // The live region wraps the heading: role="alert" on the h2 itself would hide its heading role.
          <div role="alert">
            <h2 className="pink-heading">{errorText(login.error)}</h2>
          </div>
        )}
        <form className="card form" onSubmit={onSubmit} aria-label="Log in">
          <div className="field">
            <label htmlFor={`${id}-username`}>Username</label>
            <input
              id={`${id}-username`}
              name="username"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              required
              value={username}
              onChange={(e) => setUsername(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-password`}>Password</label>
            <input
              id={`${id}-password`}
              name="password"
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </div>
          {/* aria-disabled, not disabled: a disabled button drops the focus to the page's top. */}
          <button
            className="button button-primary button-block"
            type="submit"
            aria-disabled={login.isPending}
          >
            Log In
          </button>
        </form>
        <p className="auth-switch">
          New to Hunch? <Link to="/register">Create an account</Link>
        </p>
        <p className="note">
          Forgot your password? E-mail <a href="mailto:support@hunch.example">support@hunch.example</a> from
          your account's address and we will help you back in.
        </p>
      </section>
    </>
  );
}
