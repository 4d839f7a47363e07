import type { ZodType } from 'zod';

/** An answer the client caused: its status and the text a person reads. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

export const notFound = (what: string) => new HttpError(404, `${what} not found`);

/** Validates input at the edge; the first problem becomes a 400 with that problem's text. */
export function parseOr400<T>(schema: ZodType<T>, data: unknown, fallback = 'Invalid request'): T {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  // zod's own wording ('Too small: expected number to be >=0') is for developers; our schemas
  // carry the sentences people read, and anything else gets the caller's plain fallback.
  const generic =
    /^(Invalid input|Too (small|big)|Invalid (string|option|type|format|element|key|union|value)|Unrecognized)|expected/i;
  const message = issue && !generic.test(issue.message) ? issue.message : fallback;
  throw new HttpError(400, message);
}
