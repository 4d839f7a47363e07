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
/**
 * No invisible character that turns the text after it around: the embeddings and overrides
 * (U+202A-U+202E) and the isolates (U+2066-U+2069). A game named '\u202Eevil' shows players 'live'
 * ('Trojan source' spoofing). Right-to-left letters need none of them, and the marks U+200E and
 * U+200F, which only order neutral characters such as punctuation, stay allowed. Season files
 * (season-schema.ts) refuse them too.
 */
export const NO_DIRECTION_CONTROL = /^[^\u202A-\u202E\u2066-\u2069]*$/;

export const textMessages = {
  control: 'Text must not contain control characters (such as NUL, tabs or line breaks)',
  direction: 'Text must not contain invisible text-direction characters (such as a right-to-left override)',
  nul: 'Text must not contain NUL characters',
} as const;

/**
 * The sentences a field sends back instead of the defaults. A string is the field's one sentence
 * for every refusal ('Unknown category'); so is `invalid` unless `direction` words that one apart
 * (a field whose `invalid` speaks of control characters). Without `tooLong`, a text over the limit
 * keeps zod's own wording, so the route answers with its own text, as before these schemas.
 */
export type TextMessages = string | { tooLong?: string; invalid?: string; direction?: string };

function messagesOf(messages: TextMessages | undefined, invalid: string) {
  if (typeof messages === 'string') return { tooLong: messages, invalid: messages, direction: messages };
  return {
    tooLong: messages?.tooLong,
    invalid: messages?.invalid ?? invalid,
    direction: messages?.direction ?? messages?.invalid ?? textMessages.direction,
  };
}

/**
 * One line a person types: a name, a username, a search, an endpoint, a filter. Up to `max`
 * characters, no control character, no text-direction control. `trim` trims before the checks (a
 * form field's spaces).
 */
export function plainText(
  max: number,
  messages?: TextMessages,
  { trim = false }: { trim?: boolean } = {},
): z.ZodString {
  const m = messagesOf(messages, textMessages.control);
  const base = trim ? z.string().trim() : z.string();
  return base.max(max, m.tooLong).regex(CONTROL, m.invalid).regex(NO_DIRECTION_CONTROL, m.direction);
}

/**
 * Text written at length (a description, a question): line breaks and tabs allowed, NUL and
 * text-direction controls never.
 */
export function freeText(max: number, messages?: TextMessages): z.ZodString {
  const m = messagesOf(messages, textMessages.nul);
  return z.string().max(max, m.tooLong).regex(NO_NUL, m.invalid).regex(NO_DIRECTION_CONTROL, m.direction);
}
