import { PROFILE_IMAGE_MAX_BYTES } from '@hunch/contract';
import type { FastifyRequest } from 'fastify';
import { HttpError } from './http-error';

export interface UploadedFile {
  fieldname: string;
  buffer: Buffer;
}

export interface FormBody {
  fields: Record<string, string>;
  file: UploadedFile | undefined;
}

/** More text fields than any form of the app has (registration has six). */
const MAX_FIELDS = 20;
/**
 * A text field's bytes: the longest the app sends is an e-mail address (254 characters). The
 * parser's own default is 1 MB a field, read into memory before any handler or throttle runs:
 * twenty of them made a login request hold 20 MB.
 */
export const FORM_FIELD_MAX_BYTES = 4096;

/**
 * The multipart parser's own errors carry no status (a bare Error with a developer's wording): the
 * client sent them, so each is a 400 with a sentence a person reads.
 */
const unreadable: [RegExp, string][] = [
  // No `boundary=` in the content type, an empty one, or one over the 70 characters RFC 2046 allows.
  [/boundary|needle/i, 'The form could not be read: its multipart boundary is missing or malformed'],
  // A body cut short, or one whose parts never use the boundary its content type names.
  [/unexpected end/i, 'The form could not be read: it ended before its closing boundary'],
];

/**
 * Limits on the number of parts are the form's shape, not its size: a 400, like any other form the
 * app never sends. The file's size keeps its 413.
 */
const malformedShape: Record<string, string> = {
  FST_FILES_LIMIT: 'Send one image at most',
  FST_FIELDS_LIMIT: 'Too many form fields',
  FST_PARTS_LIMIT: 'Too many form parts',
  FST_PROTO_VIOLATION: 'The form has a field name that is not allowed',
};

function formError(err: unknown): unknown {
  if (err instanceof HttpError) return err;
  const { code, statusCode, message } = err as { code?: string; statusCode?: number; message?: string };
  const shape = code ? malformedShape[code] : undefined;
  if (shape) return new HttpError(400, shape);
  // The parser's other client errors (the image too large, the client gone) go on as they are:
  // the error handler words them by their code.
  if (statusCode && statusCode >= 400 && statusCode < 500) return err;
  const text = unreadable.find(([pattern]) => pattern.test(message ?? ''))?.[1];
  return new HttpError(400, text ?? 'The form could not be read: send it again');
}

/**
 * Reads a form sent multipart, urlencoded or as JSON into string fields and at most one file, the
 * part named `fileField`: a form without one refuses any file. Non-string JSON values are dropped
 * so that the schema reports the field as missing.
 */
export async function readForm(request: FastifyRequest, fileField?: string): Promise<FormBody> {
  const fields: Record<string, string> = {};
  let file: UploadedFile | undefined;
  if (request.isMultipart()) {
    try {
      for await (const part of request.parts({
        limits: {
          fileSize: PROFILE_IMAGE_MAX_BYTES,
          files: 1,
          fields: MAX_FIELDS,
          fieldSize: FORM_FIELD_MAX_BYTES,
          parts: MAX_FIELDS + 1,
        },
      })) {
        if (part.type === 'file') {
          // Refused before its bytes are read: nothing would use them.
          if (!fileField) throw new HttpError(400, 'This form takes no file');
          if (part.fieldname !== fileField) {
            throw new HttpError(400, `Send the image as the form field ${fileField}`);
          }
          const buffer = await part.toBuffer();
          if (part.file.truncated) throw new HttpError(413, 'The image is too large (5 MB at most)');
          // An empty file input still sends a part, without a file name: no file. A file chosen
          // but empty has its name, and is told so.
          if (buffer.length === 0 && part.filename)
            throw new HttpError(400, 'The image file is empty: choose a JPEG or PNG picture');
          if (buffer.length > 0) file = { fieldname: part.fieldname, buffer };
        } else if (part.valueTruncated) {
          // Cut at the limit by the parser: refused, not read as a shorter value.
          throw new HttpError(413, `A form field is too long (${FORM_FIELD_MAX_BYTES / 1024} KB at most)`);
        } else if (typeof part.value === 'string') {
          fields[part.fieldname] = part.value;
        }
      }
    } catch (err) {
      throw formError(err);
    }
    return { fields, file };
  }
  const body = request.body;
  if (body && typeof body === 'object') {
    for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
      if (typeof v === 'string') fields[k] = v;
    }
  }
  return { fields, file };
}
