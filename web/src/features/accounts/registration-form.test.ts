import { registrationSchema } from '@hunch/contract';
import { describe, expect, it } from 'vitest';
import { genderValue, type RegistrationValues, registrationForm, SPECIFY_GENDER } from './registration-form';

const values = (overrides: Partial<RegistrationValues> = {}): RegistrationValues => ({
  username: 'ann_smith',
  password: 'secret!42',
  email: 'ann@example.com',
  zipcode: '77002',
  dob: '1990-05-17',
  gender: { choice: '', specified: '' },
  image: null,
  ...overrides,
});

describe('registration form body', () => {
  it('sends the fields the register route reads', () => {
    const form = registrationForm(values({ gender: { choice: 'Female', specified: '' } }));
    expect(registrationSchema.parse(Object.fromEntries(form))).toEqual({
      username: 'ann_smith',
      password: 'secret!42',
      email: 'ann@example.com',
      zipcode: '77002',
      date_of_birth: '1990-05-17',
      gender: 'Female',
    });
  });

  it('leaves gender out for "Prefer not to answer" and an empty specified text', () => {
    expect(registrationForm(values()).has('gender')).toBe(false);
    expect(
      registrationForm(values({ gender: { choice: SPECIFY_GENDER, specified: '   ' } })).has('gender'),
    ).toBe(false);
  });

  it('sends the specified gender, trimmed, instead of the choice', () => {
    expect(genderValue({ choice: SPECIFY_GENDER, specified: '  Agender ' })).toBe('Agender');
    expect(genderValue({ choice: 'Male', specified: 'ignored' })).toBe('Male');
  });

  it('adds the profile image only when one was picked', () => {
    expect(registrationForm(values()).has('profile_img')).toBe(false);
    const image = new File([new Uint8Array([0xff, 0xd8])], 'me.jpg', { type: 'image/jpeg' });
    const sent = registrationForm(values({ image })).get('profile_img');
    expect(sent).toBeInstanceOf(File);
    expect((sent as File).name).toBe('me.jpg');
  });
});
