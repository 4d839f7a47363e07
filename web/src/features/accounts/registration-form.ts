/** The registration form's values and the multipart body they become (spec §4, §5). */

export const SPECIFY_GENDER = 'specify';

export interface GenderChoice {
  /** One of the offered answers ('' is 'Prefer not to answer'), or SPECIFY_GENDER. */
  choice: string;
  /** The free text used when choice is SPECIFY_GENDER. */
  specified: string;
}

/** The value to submit: the specified text replaces the choice; empty means "omit the field". */
export function genderValue({ choice, specified }: GenderChoice): string {
  return choice === SPECIFY_GENDER ? specified.trim() : choice;
}

export interface RegistrationValues {
  username: string;
  password: string;
  email: string;
  zipcode: string;
  /** yyyy-mm-dd, as the date input gives it. */
  dob: string;
  gender: GenderChoice;
  image: File | null;
}

/** The register call's form body: optional parts (gender, image) are left out when not given. */
export function registrationForm(values: RegistrationValues): FormData {
  const form = new FormData();
  form.set('username', values.username);
  form.set('password', values.password);
  form.set('email', values.email);
  form.set('zipcode', values.zipcode);
  form.set('date_of_birth', values.dob);
  const gender = genderValue(values.gender);
  if (gender) form.set('gender', gender);
  if (values.image) form.set('profile_img', values.image);
  return form;
}
