import { z } from 'zod';
import { GENDER_MAX, PASSWORD_MAX, PASSWORD_MIN, USERNAME_MAX, USERNAME_MIN } from './limits';
import { plainText } from './text';

/** The exact texts of spec §5; the server answers with them and the web shows them. */
export const accountMessages = {
  usernameTaken: 'Username unavailable',
  usernameInvalid: 'Invalid username',
  emailTaken: 'Email address unavailable',
  emailInvalid: 'Invalid email address',
  zipcodeInvalid: 'Invalid zipcode',
  zipcodeUnknown: 'Zipcode unavailable',
  dobInvalid: 'Invalid date of birth',
  tooYoung: 'Age 12+ required',
  passwordInvalid: 'Password must be 6-20 characters: letters, digits or ? ! @ # $ % ^ & * ( ) + =',
  genderInvalid: 'Gender must be at most 20 characters',
  /** Not a spec text: a gender a text box cannot produce (a control character). */
  genderUnreadable: 'Gender must not contain control characters',
  /** Not a spec text either: nor one that turns the text around (text.ts). */
  genderDirection: 'Gender must not contain invisible text-direction characters',
  loginRequired: 'Username and password are required',
  /** Not spec texts: a login field longer than any account's, said as the rule of sign-up. */
  loginUsernameTooLong: `Username is too long: usernames are ${USERNAME_MIN}-${USERNAME_MAX} characters`,
  loginPasswordTooLong: `Password is too long: passwords are ${PASSWORD_MIN}-${PASSWORD_MAX} characters`,
  badCredentials: 'Incorrect username or password',
  /** A write refused for its CSRF token: the web fetches a fresh token and retries once. */
  csrfRefused: 'Your security token is missing or expired. Reload the page and try again.',
  /** A write from a tab that shows another account than the session's (a login in another tab). */
  accountChanged:
    'You are signed in as someone else now, in another tab or window. Reload the page to go on.',
} as const;

/**
 * The signed-in account's id: the server names it in every API answer to a signed-in caller, and a
 * tab sends back the one it shows with each write, which is refused (409, accountChanged) when the
 * session is now another account's: a tab left open after a login elsewhere must not answer, save or
 * join as that other person (decision 036).
 */
export const ACCOUNT_HEADER = 'x-hunch-account';

// Trimmed: a name has no spaces, and a phone keyboard adds one after a suggested word.
export const usernameSchema = plainText(USERNAME_MAX, accountMessages.usernameInvalid, { trim: true })
  .min(USERNAME_MIN, accountMessages.usernameInvalid)
  .regex(/^[A-Za-z0-9_]+$/, accountMessages.usernameInvalid);

export const passwordSchema = plainText(PASSWORD_MAX, accountMessages.passwordInvalid)
  .min(PASSWORD_MIN, accountMessages.passwordInvalid)
  .regex(/^[A-Za-z0-9?!@#$%^&*()+=]+$/, accountMessages.passwordInvalid);

export const emailSchema = plainText(254, accountMessages.emailInvalid).email(accountMessages.emailInvalid);

export const zipcodeSchema = plainText(5, accountMessages.zipcodeInvalid).regex(
  /^\d{5}$/,
  accountMessages.zipcodeInvalid,
);

/** A calendar date written YYYY-MM-DD that exists (no 2023-02-29). Age is checked by rules/age. */
export const dateOfBirthSchema = plainText(10, accountMessages.dobInvalid)
  .regex(/^\d{4}-\d{2}-\d{2}$/, accountMessages.dobInvalid)
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s && d.getUTCFullYear() >= 1900;
  }, accountMessages.dobInvalid);

export const genderSchema = plainText(
  GENDER_MAX,
  {
    tooLong: accountMessages.genderInvalid,
    invalid: accountMessages.genderUnreadable,
    direction: accountMessages.genderDirection,
  },
  { trim: true },
).min(1);

export const checkFields = ['username', 'email', 'zipcode', 'DoB'] as const;
export type CheckField = (typeof checkFields)[number];

/** Text fields of POST /api/register (multipart or urlencoded); profile_img is a file part. */
export const registrationSchema = z.object({
  username: usernameSchema,
  password: passwordSchema,
  email: emailSchema,
  zipcode: zipcodeSchema,
  date_of_birth: dateOfBirthSchema,
  gender: genderSchema.optional(),
});
export type Registration = z.infer<typeof registrationSchema>;

// No account has a name or password with a control character (the rules above refuse them), so a
// login with one is refused as malformed before any lookup. Over 100 characters (five times any
// account's) the field says so in the words of sign-up's rule; up to it, a name or password no
// account has is answered as any wrong one. Missing or not text: the route's own 'Username and
// password are required'.
export const loginSchema = z.object({
  // Trimmed as at sign-up: 'name ' from a phone keyboard is the account 'name', not a wrong password.
  username: plainText(
    100,
    { tooLong: accountMessages.loginUsernameTooLong, invalid: accountMessages.usernameInvalid },
    { trim: true },
  ).min(1, accountMessages.loginRequired),
  password: plainText(100, {
    tooLong: accountMessages.loginPasswordTooLong,
    invalid: accountMessages.passwordInvalid,
  }).min(1, accountMessages.loginRequired),
});

export const zipcodeCheckResultSchema = z.object({ name: z.string() });

export const joinedCommunitySchema = z.object({ name: z.string(), img: z.string() });

export const profileSchema = z.object({
  username: z.string(),
  name: z.array(z.string()),
  joined_communities: z.record(z.string(), joinedCommunitySchema),
  profile_img: z.string(),
  isPrivate: z.boolean(),
  /** Present only when the viewer may see it (the owner, or anyone for a public profile). */
  geo_group: z.string().optional(),
  /** True when the viewer is the profile's owner. */
  isOwner: z.boolean(),
});
export type Profile = z.infer<typeof profileSchema>;

export const profileVisibilitySchema = z.object({ private_profile: z.boolean() });
