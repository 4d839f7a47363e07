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
  const message = issue && !issue.message.startsWith('Invalid input') && !issue.message.startsWith('Expected')
    ? issue.message
    : fallback;
  throw new HttpError(400, message);
}
