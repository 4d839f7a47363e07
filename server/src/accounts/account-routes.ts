import {
  accountMessages,
  type CheckField,
  checkFields,
  loginSchema,
  registrationSchema,
} from '@hunch/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { presentProfile } from '../core/profile-queries';
import type { AppContext } from '../platform/app-context';
import { readForm } from '../platform/http/form-body';
import { HttpError, parseOr400 } from '../platform/http/http-error';
import { reencodeUpload, removeImage, storeImage } from '../platform/images';
import { endSession, startSession } from '../platform/sessions';
import { assertLoginAllowed, clearLoginFailures, recordLoginFailure } from './login-throttle';
import { verifyPassword } from './passwords';
import { checkRegistrationField, registerUser } from './registration';

const checkQuerySchema = z.object({ check: z.string().max(300) });

export function accountRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;

  app.get('/api/csrf', async (_request, reply) => ({ token: reply.generateCsrf() }));

  app.get<{ Params: { field: string } }>('/api/check_registration/:field', async (request, reply) => {
    const field = request.params.field as CheckField;
    if (!checkFields.includes(field))
      throw new HttpError(404, `Unknown registration field: ${request.params.field}`);
    const fieldMessages: Record<CheckField, string> = {
      username: accountMessages.usernameInvalid,
      email: accountMessages.emailInvalid,
      zipcode: accountMessages.zipcodeInvalid,
      DoB: accountMessages.dobInvalid,
    };
    const { check } = parseOr400(checkQuerySchema, request.query, fieldMessages[field]);
    const result = await checkRegistrationField(db, field, check, ctx.now());
    reply.code(result.status);
    return typeof result.body === 'string'
      ? reply.type('text/plain; charset=utf-8').send(result.body)
      : result.body;
  });

  app.post('/api/register', async (request, reply) => {
    const { fields, file } = await readForm(request);
    // An empty gender means 'Prefer not to answer': the field is simply absent.
    if (fields.gender !== undefined && fields.gender.trim() === '') delete fields.gender;
    const form = parseOr400(registrationSchema, fields, 'Please fill in every required field');
    const jpeg = file ? await reencodeUpload(file.buffer, 'users') : null;
    const image = jpeg ? await storeImage(ctx.uploadsDir, 'users', jpeg) : null;
    let userId: number;
    try {
      userId = await registerUser(db, form, image, ctx.uploadsDir, ctx.now());
    } catch (err) {
      await removeImage(ctx.uploadsDir, 'users', image);
      throw err;
    }
    await startSession(db, reply, userId);
    reply.code(201);
    return presentProfile(db, userId, userId);
  });

  app.put('/api/login', async (request, reply) => {
    const { fields } = await readForm(request);
    const { username, password } = parseOr400(loginSchema, fields, accountMessages.loginRequired);
    const usernameKey = username.toLowerCase();
    await assertLoginAllowed(db, usernameKey, request.ip);
    const { rows } = await db.query<{ id: number; password_hash: string }>(
      'SELECT id, password_hash FROM users WHERE username_key = $1',
      [usernameKey],
    );
    const user = rows[0];
    if (!(await verifyPassword(user?.password_hash, password)) || !user) {
      await recordLoginFailure(db, usernameKey, request.ip);
      throw new HttpError(401, accountMessages.badCredentials);
    }
    await clearLoginFailures(db, usernameKey);
    await startSession(db, reply, user.id);
    return presentProfile(db, user.id, user.id);
  });

  app.put('/api/logout', async (request, reply) => {
    await endSession(db, request, reply);
    return reply.type('text/plain; charset=utf-8').send('Logged out');
  });
}
