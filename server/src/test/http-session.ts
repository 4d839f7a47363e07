/** A minimal browser over real HTTP: a cookie jar and the CSRF token, like the web client. */
export function httpSession(baseUrl: string) {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const call = async (
    method: string,
    url: string,
    body?: URLSearchParams | object,
    extra: Record<string, string> = {},
  ): Promise<Response> => {
    const headers: Record<string, string> = { ...extra, cookie: cookieHeader() };
    if (method !== 'GET') {
      const { token } = (await (await call('GET', '/api/csrf')).json()) as { token: string };
      headers['x-csrf-token'] = token;
      headers.cookie = cookieHeader();
    }
    let payload: string | URLSearchParams | undefined;
    if (body instanceof URLSearchParams) payload = body;
    else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const res = await fetch(`${baseUrl}${url}`, { method, headers, body: payload });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    return res;
  };
  return { call, cookie: cookieHeader };
}

let n = 0;
/** Registers a fresh player over HTTP; returns the session and its username. */
export async function registerOverHttp(baseUrl: string, zipcode = '77002') {
  const s = httpSession(baseUrl);
  const username = `live_${process.pid % 1000}_${Date.now().toString(36).slice(-4)}${n++}`;
  const res = await s.call(
    'POST',
    '/api/register',
    new URLSearchParams({
      username,
      password: 'secret!42',
      email: `${username}@example.com`,
      zipcode,
      date_of_birth: '1990-01-01',
    }),
  );
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  return { ...s, username };
}
