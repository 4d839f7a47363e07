import type { BodyKind } from '@hunch/contract';

/**
 * What a route of each body kind reads, said to a client that sent another content type (415).
 * Fastify's own wording ('Unsupported content type') does not tell the client what would do.
 */
const accepted: Record<BodyKind, string> = {
  json: 'Send the body as application/json',
  form: 'Send the form as multipart/form-data, application/x-www-form-urlencoded or application/json',
  document:
    'Send the season as application/yaml or application/json, or a .zip in the multipart field season',
  none: 'This call takes no body',
};

/** The 415's sentence for a route of this body kind; without a route, the plain one. */
export function acceptedBodyTypes(kind: BodyKind | undefined): string {
  return kind ? accepted[kind] : 'Unsupported content type';
}
