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

/**
 * Reads a form sent multipart, urlencoded or as JSON into string fields and at most one file.
 * Non-string JSON values are dropped so that the schema reports the field as missing.
 */
export async function readForm(request: FastifyRequest): Promise<FormBody> {
  const fields: Record<string, string> = {};
  let file: UploadedFile | undefined;
  if (request.isMultipart()) {
    try {
      for await (const part of request.parts({
        limits: { fileSize: PROFILE_IMAGE_MAX_BYTES, files: 1, fields: 20 },
      })) {
        if (part.type === 'file') {
          const buffer = await part.toBuffer();
          if (part.file.truncated) throw new HttpError(413, 'The image is too large (5 MB at most)');
          // An empty file input still sends a part; treat it as no file.
          if (buffer.length > 0) file = { fieldname: part.fieldname, buffer };
        } else if (typeof part.value === 'string') {
          fields[part.fieldname] = part.value;
        }
      }
    } catch (err) {
      // The multipart parser's own errors (a form cut short, a broken boundary) carry no status:
      // the client sent them, so they are a 400, not a 500. Limits keep their own status.
      if (err instanceof HttpError || (err as { statusCode?: number }).statusCode) throw err;
      throw new HttpError(400, 'The form could not be read: send it again');
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
