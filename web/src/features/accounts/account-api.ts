import { type CheckField, type CommunityRank, httpRoutes, type Profile } from '@hunch/contract';
import { callApi, errorFrom, isApiError, readSuccess, sendApi, sessionChanged } from '../../api/client';
import type { FieldCheck } from './field-states';

export async function logIn(username: string, password: string): Promise<Profile> {
  const body = new FormData();
  body.set('username', username);
  body.set('password', password);
  return withNewSession(httpRoutes.login, await sendApi(httpRoutes.login, { body }));
}

export async function register(body: FormData): Promise<Profile> {
  return withNewSession(httpRoutes.register, await sendApi(httpRoutes.register, { body }));
}

export async function logOut(): Promise<void> {
  const res = await sendApi(httpRoutes.logout);
  if (!res.ok) throw await errorFrom(res);
  sessionChanged();
  await res.text();
}

/**
 * A login's or sign-up's answer: once it is a success the session is another, whatever reading the
 * profile in it then does (the CSRF token and the shown account are forgotten, other tabs told).
 */
async function withNewSession(
  def: typeof httpRoutes.login | typeof httpRoutes.register,
  res: Response,
): Promise<Profile> {
  if (!res.ok) throw await errorFrom(res);
  sessionChanged();
  return readSuccess(def, res);
}

export async function fetchProfileOf(username: string): Promise<Profile> {
  return callApi(httpRoutes.profile, { query: { u: username } });
}

export async function setProfileVisibility(isPrivate: boolean): Promise<Profile> {
  return callApi(httpRoutes.profileVisibility, { body: { private_profile: isPrivate } });
}

export async function uploadProfileImage(file: File): Promise<Profile> {
  const body = new FormData();
  body.set('profile_img', file);
  return callApi(httpRoutes.profileImage, { body });
}

/** GET community_rank; 404 (no games yet, or nothing to rank) means "show nothing". */
export async function fetchCommunityRank(community: string, username: string): Promise<CommunityRank | null> {
  try {
    return await callApi(httpRoutes.communityRank, { params: { community }, query: { u: username } });
  } catch (err) {
    if (isApiError(err, 404)) return null;
    throw err;
  }
}

/** GET check_registration/{field}?check=value; never throws for a 4xx, that is a verdict. */
export async function checkRegistration(field: CheckField, value: string): Promise<FieldCheck> {
  const res = await sendApi(httpRoutes.checkRegistration, { params: { field }, query: { check: value } });
  if (res.ok) {
    if (field !== 'zipcode') return { ok: true, message: null };
    // The route answers {name} for a zipcode only; its table entry cannot say which field it was.
    // Checked by the route's own schema through readSuccess, not by importing zipcodeCheckResultSchema
    // here: that import put zod into /login's and /profile's first screens (decision 025).
    const geo = await readSuccess(httpRoutes.checkRegistration, res).catch(() => null);
    return { ok: true, message: geo && typeof geo === 'object' ? `Your geo-group: ${geo.name}` : null };
  }
  const text = (await res.text()).trim();
  if (res.status >= 500) throw new Error(text || 'Server error');
  // Loaded here, not imported at the top: registration-checks holds the form's zod schemas, and
  // this module is in /login's and /profile's first screens too (decision 025). On the register
  // page, the only caller, the module is already loaded.
  const { checkMessage } = await import('./registration-checks');
  return { ok: false, message: checkMessage(field, value, res.status, text) };
}
