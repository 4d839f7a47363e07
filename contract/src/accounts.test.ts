import { describe, expect, it } from 'vitest';
import {
  dateOfBirthSchema,
  emailSchema,
  genderSchema,
  loginSchema,
  passwordSchema,
  registrationSchema,
  usernameSchema,
  zipcodeSchema,
} from './accounts';

const ok = (schema: { safeParse(v: unknown): { success: boolean } }, v: unknown) =>
  schema.safeParse(v).success;

describe('username rule: 6-20 letters, digits or underscore', () => {
  it.each([
    ['abcde', false],
    ['abcdef', true],
    ['a'.repeat(20), true],
    ['a'.repeat(21), false],
    ['Player_01', true],
    ['has space', false],
    ['tab\tname1', false],
    ['dash-name', false],
    ['émilie_1', false],
    ["x' OR 1=1--", false],
    ['', false],
  ])('%j -> %s', (value, expected) => expect(ok(usernameSchema, value)).toBe(expected));
});

describe('password rule: 6-20 of letters, digits and ?!@#$%^&*()+=', () => {
  it.each([
    ['12345', false],
    ['123456', true],
    ['p'.repeat(20), true],
    ['p'.repeat(21), false],
    ['?!@#$%^&*()+=', true],
    ['with space', false],
    ['semi;colon', false],
    ['quote"s1', false],
  ])('%j -> %s', (value, expected) => expect(ok(passwordSchema, value)).toBe(expected));
});

describe('email rule', () => {
  it.each([
    ['a@b.co', true],
    ['first.last+tag@example.org', true],
    ['no-at-sign.com', false],
    ['two@@example.com', false],
    ['trailing@', false],
    [`${'x'.repeat(250)}@example.com`, false],
  ])('%j -> %s', (value, expected) => expect(ok(emailSchema, value)).toBe(expected));
});

describe('zipcode rule: exactly five digits', () => {
  it.each([
    ['1234', false],
    ['12345', true],
    ['123456', false],
    ['1234a', false],
    [' 12345', false],
    ['00501', true],
  ])('%j -> %s', (value, expected) => expect(ok(zipcodeSchema, value)).toBe(expected));
});

describe('date of birth format', () => {
  it.each([
    ['2000-01-31', true],
    ['2000-02-29', true], // leap year
    ['1900-02-29', false], // 1900 was not a leap year
    ['2023-02-29', false],
    ['2001-13-01', false],
    ['2001-04-31', false],
    ['01/02/2001', false],
    ['1899-12-31', false],
    ['', false],
  ])('%j -> %s', (value, expected) => expect(ok(dateOfBirthSchema, value)).toBe(expected));
});

describe('gender', () => {
  it('allows up to 20 characters', () => {
    expect(ok(genderSchema, 'x'.repeat(20))).toBe(true);
    expect(ok(genderSchema, 'x'.repeat(21))).toBe(false);
  });
});

describe('registration form', () => {
  const valid = {
    username: 'player_one',
    password: 'secret!42',
    email: 'p1@example.com',
    zipcode: '77002',
    date_of_birth: '1990-05-17',
  };
  it('accepts a complete form without gender', () => expect(ok(registrationSchema, valid)).toBe(true));
  it.each(Object.keys(valid))('rejects a form missing %s', (field) => {
    const form: Record<string, string> = { ...valid };
    delete form[field];
    expect(ok(registrationSchema, form)).toBe(false);
  });
  it('rejects a number where text belongs', () =>
    expect(ok(registrationSchema, { ...valid, zipcode: 77002 })).toBe(false));
});

describe('login form', () => {
  it('needs both fields', () => {
    expect(ok(loginSchema, { username: 'a', password: 'b' })).toBe(true);
    expect(ok(loginSchema, { username: '', password: 'b' })).toBe(false);
    expect(ok(loginSchema, { username: 'a' })).toBe(false);
  });
  it('trims the username, as sign-up does', () => {
    expect(loginSchema.parse({ username: ' abcdef ', password: 'b' }).username).toBe('abcdef');
    expect(usernameSchema.parse('abcdef ')).toBe('abcdef');
    expect(ok(loginSchema, { username: '   ', password: 'b' })).toBe(false);
  });
});
