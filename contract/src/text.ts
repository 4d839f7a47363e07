import { z } from 'zod';

/**
 * The two kinds of text a client may send, shared by every input schema of the contract (route
 * params, queries and bodies, socket payloads), so no text reaches a handler or the database with a
 * character it cannot hold: PostgreSQL text refuses NUL outright (a 500 before these existed).
 */

/** Unicode's control characters (Cc): C0 (NUL, tab, line breaks, escape…), DEL and C1. */
const CONTROL = /^[^\p{Cc}]*$/u;
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what it looks for.
const NO_NUL = /^[^\u0000]*$/;

export const textMessages = {
  control: 'Text must not contain control characters (such as NUL, tabs or line breaks)',
  nul: 'Text must not contain NUL characters',
} as const;

/**
 * The sentences a field sends back instead of the defaults. A string is the field's one sentence
 * for both refusals ('Unknown category'). Without `tooLong`, a text over the limit keeps zod's own
 * wording, so the route answers with its own text, as before these schemas.
 */
export type TextMessages = string | { tooLong?: string; invalid?: string };

function messagesOf(messages: TextMessages | undefined, invalid: string) {
  if (typeof messages === 'string') return { tooLong: messages, invalid: messages };
  return { tooLong: messages?.tooLong, invalid: messages?.invalid ?? invalid };
}

/**
 * One line a person types: a name, a username, a search, an endpoint, a filter. Up to `max`
 * characters, no control character. `trim` trims before the checks (a form field's spaces).
 */
export function plainText(
  max: number,
  messages?: TextMessages,
  { trim = false }: { trim?: boolean } = {},
): z.ZodString {
  const m = messagesOf(messages, textMessages.control);
  const base = trim ? z.string().trim() : z.string();
  return base.max(max, m.tooLong).regex(CONTROL, m.invalid);
}

/** Text written at length (a description, a question): line breaks and tabs allowed, NUL never. */
export function freeText(max: number, messages?: TextMessages): z.ZodString {
  const m = messagesOf(messages, textMessages.nul);
  return z.string().max(max, m.tooLong).regex(NO_NUL, m.invalid);
}
