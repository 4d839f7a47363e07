import { accountMessages } from '@hunch/contract';
import { describe, expect, it } from 'vitest';
import {
  CHECK_FAILED,
  canSignUp,
  confirmState,
  type FieldState,
  IDLE,
  localFieldState,
  PASSWORD_MISMATCH,
  serverFieldState,
  shouldAskServer,
} from './field-states';
import { checkDateOfBirth, checkMessage, localChecks } from './registration-checks';

const VALID: FieldState = { status: 'valid', message: null };

describe('registration: format checks in the browser', () => {
  it('checks usernames: 6-20 letters, digits or underscores', () => {
    expect(localChecks.username('player_1')).toBeNull();
    expect(localChecks.username('abc')).toBe(accountMessages.usernameInvalid);
    expect(localChecks.username('a'.repeat(21))).toBe(accountMessages.usernameInvalid);
    expect(localChecks.username('player one')).toBe(accountMessages.usernameInvalid);
  });

  it('checks passwords, emails and zipcodes with the contract’s messages', () => {
    expect(localChecks.password('secret!42')).toBeNull();
    expect(localChecks.password('short')).toBe(accountMessages.passwordInvalid);
    expect(localChecks.password('no spaces allowed')).toBe(accountMessages.passwordInvalid);
    expect(localChecks.email('ann@example.com')).toBeNull();
    expect(localChecks.email('ann@')).toBe(accountMessages.emailInvalid);
    expect(localChecks.zipcode('77002')).toBeNull();
    expect(localChecks.zipcode('7700')).toBe(accountMessages.zipcodeInvalid);
    expect(localChecks.zipcode('7700a')).toBe(accountMessages.zipcodeInvalid);
  });

  it('checks a date of birth: a real date, not in the future, 12 or older', () => {
    const now = new Date('2026-11-22T12:00:00Z');
    expect(checkDateOfBirth('2014-11-22', now)).toBeNull();
    expect(checkDateOfBirth('2014-11-23', now)).toBe(accountMessages.tooYoung);
    expect(checkDateOfBirth('2026-11-23', now)).toBe(accountMessages.dobInvalid);
    expect(checkDateOfBirth('2023-02-29', now)).toBe(accountMessages.dobInvalid);
    expect(checkDateOfBirth('22/11/2000', now)).toBe(accountMessages.dobInvalid);
  });
});

describe('registration: the server’s verdict as the field shows it', () => {
  it('says whose username or email is taken (spec §5)', () => {
    expect(checkMessage('username', 'ann_smith', 409, accountMessages.usernameTaken)).toBe(
      'Username ann_smith is taken.',
    );
    expect(checkMessage('email', 'ann@example.com', 409, accountMessages.emailTaken)).toBe(
      'An account with email address ann@example.com exists.',
    );
  });

  it('shows any other refusal in the server’s own words', () => {
    expect(checkMessage('zipcode', '00000', 404, accountMessages.zipcodeUnknown)).toBe(
      accountMessages.zipcodeUnknown,
    );
    expect(checkMessage('DoB', '2020-01-01', 403, accountMessages.tooYoung)).toBe(accountMessages.tooYoung);
    expect(checkMessage('username', 'x', 400, '')).toBe('Could not check this field (400).');
  });

  it('asks the server only about a settled value that passed the format check', () => {
    expect(shouldAskServer('player_1', 'player_1', localChecks.username)).toBe(true);
    expect(shouldAskServer('player_12', 'player_1', localChecks.username)).toBe(false);
    expect(shouldAskServer('abc', 'abc', localChecks.username)).toBe(false);
    expect(shouldAskServer('', '', localChecks.username)).toBe(false);
    expect(shouldAskServer('player_1', 'player_1', null)).toBe(false);
  });

  it('says a settled field is being checked until the format checks have loaded', () => {
    const checking = { status: 'checking', message: 'Checking…' };
    expect(
      serverFieldState({ value: 'player_1', settled: 'player_1', localCheck: null, verdict: undefined }),
    ).toEqual(checking);
    expect(localFieldState('secret!4', 'secret!4', null)).toEqual(checking);
    expect(localFieldState('', '', null)).toEqual(IDLE);
  });

  it('says nothing while typing, then the format error, then checking, then the verdict', () => {
    const check = localChecks.username;
    const state = (
      value: string,
      settled: string,
      verdict?: Parameters<typeof serverFieldState>[0]['verdict'],
    ) => serverFieldState({ value, settled, localCheck: check, verdict });
    expect(state('', '')).toEqual(IDLE);
    expect(state('player_12', 'player_1', { ok: true, message: null })).toEqual(IDLE);
    expect(state('abc', 'abc')).toEqual({ status: 'invalid', message: accountMessages.usernameInvalid });
    expect(state('player_1', 'player_1')).toEqual({ status: 'checking', message: 'Checking…' });
    expect(state('player_1', 'player_1', { ok: true, message: null })).toEqual(VALID);
    expect(state('player_1', 'player_1', { ok: false, message: 'Username player_1 is taken.' })).toEqual({
      status: 'invalid',
      message: 'Username player_1 is taken.',
    });
    expect(state('player_1', 'player_1', 'failed')).toEqual({ status: 'invalid', message: CHECK_FAILED });
  });

  it('passes the zipcode’s geo-group text through as the valid field’s message', () => {
    expect(
      serverFieldState({
        value: '77002',
        settled: '77002',
        localCheck: localChecks.zipcode,
        verdict: { ok: true, message: 'Your geo-group: Houston' },
      }),
    ).toEqual({ status: 'valid', message: 'Your geo-group: Houston' });
  });

  it('checks the password in the browser once typing paused', () => {
    expect(localFieldState('secret!4', 'secret!', localChecks.password)).toEqual(IDLE);
    expect(localFieldState('secret!4', 'secret!4', localChecks.password)).toEqual(VALID);
    expect(localFieldState('short', 'short', localChecks.password)).toEqual({
      status: 'invalid',
      message: accountMessages.passwordInvalid,
    });
  });
});

describe('registration: confirm password', () => {
  it('is valid when it matches a password', () => {
    expect(confirmState('secret!42', 'secret!42', 'secret!42')).toEqual(VALID);
    expect(confirmState('secret!42', '', '')).toEqual(IDLE);
  });

  it('waits while it can still become the password, then says they must match', () => {
    expect(confirmState('secret!42', 'secret', 'secre')).toEqual(IDLE);
    expect(confirmState('secret!42', 'secret', 'secret')).toEqual({
      status: 'invalid',
      message: PASSWORD_MISMATCH,
    });
  });

  it('says so at once when it can no longer match', () => {
    expect(confirmState('secret!42', 'secrex', 'secr')).toEqual({
      status: 'invalid',
      message: PASSWORD_MISMATCH,
    });
  });
});

describe('registration: Sign Up', () => {
  const checked = [VALID, VALID, VALID, VALID];

  it('is enabled once every field is valid and the passwords match', () => {
    expect(canSignUp(checked, localChecks.password, 'secret!42', 'secret!42')).toBe(true);
  });

  it('stays disabled while any field is unconfirmed or the passwords differ', () => {
    expect(
      canSignUp(
        [...checked.slice(1), { status: 'checking', message: 'Checking…' }],
        localChecks.password,
        'secret!42',
        'secret!42',
      ),
    ).toBe(false);
    expect(canSignUp(checked, localChecks.password, 'secret!42', 'secret!43')).toBe(false);
    expect(canSignUp(checked, localChecks.password, 'short', 'short')).toBe(false);
    // Before the format checks have loaded, nothing is confirmed.
    expect(canSignUp(checked, null, 'secret!42', 'secret!42')).toBe(false);
  });
});
