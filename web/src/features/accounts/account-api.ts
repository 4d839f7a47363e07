import {
  accountMessages,
  type CheckField,
  type Profile,
  profileSchema,
  profileVisibilitySchema,
  zipcodeCheckResultSchema,
} from '@hunch/contract';
import { apiJson, apiVoid, errorFrom, forgetCsrfToken, send } from '../../api/client';

export async function logIn(username: string, password: string): Promise<Profile> {
  const form = new FormData();
  form.set('username', username);
  form.set('password', password);
  const profile = await apiJson('PUT', '/api/login', profileSchema, { form });
  forgetCsrfToken();
  return profile;
}

export async function register(form: FormData): Promise<Profile> {
  const profile = await apiJson('POST', '/api/register', profileSchema, { form });
  forgetCsrfToken();
  return profile;
}

export async function logOut(): Promise<void> {
  await apiVoid('PUT', '/api/logout');
  forgetCsrfToken();
}

export async function fetchProfileOf(username: string): Promise<Profile> {
  return apiJson('GET', `/api/profile?u=${encodeURIComponent(username)}`, profileSchema);
}

export async function setProfileVisibility(isPrivate: boolean): Promise<void> {
  await apiVoid('PUT', '/api/profile_visibility', {
    json: profileVisibilitySchema.parse({ private_profile: isPrivate }),
  });
}

/** Returns the updated profile when the server answers with one, else null (the caller refetches). */
export async function uploadProfileImage(file: File): Promise<Profile | null> {
  const form = new FormData();
  form.set('profile_img', file);
  const res = await send('PUT', '/api/profile_image', { form });
  if (!res.ok) throw await errorFrom(res);
  const body: unknown = await res.json().catch(() => null);
  const parsed = profileSchema.safeParse(body);
  return parsed.success ? parsed.data : null;
}

export interface FieldCheck {
  ok: boolean;
  /** What to show under the field; null when there is nothing to say. */
  message: string | null;
}

/** Turns a check_registration answer into the texts of spec §5. */
function checkMessage(field: CheckField, value: string, status: number, text: string): string {
  if (status === 409 && field === 'username' && text === accountMessages.usernameTaken) {
    return `Username ${value} is taken.`;
  }
  if (status === 409 && field === 'email' && text === accountMessages.emailTaken) {
    return `An account with email address ${value} exists.`;
  }
  return text || `Could not check this field (${status}).`;
}

/** GET /api/check_registration/{field}?check=value; never throws for a 4xx, that is a verdict. */
export async function checkRegistration(field: CheckField, value: string): Promise<FieldCheck> {
  const res = await send('GET', `/api/check_registration/${field}?check=${encodeURIComponent(value)}`);
  if (res.ok) {
    if (field !== 'zipcode') return { ok: true, message: null };
    const geo = zipcodeCheckResultSchema.safeParse(await res.json().catch(() => null));
    return { ok: true, message: geo.success ? `Your geo-group: ${geo.data.name}` : null };
  }
  const text = (await res.text()).trim();
  if (res.status >= 500) throw new Error(text || 'Server error');
  return { ok: false, message: checkMessage(field, value, res.status, text) };
}
