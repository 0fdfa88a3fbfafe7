import { Router } from 'express';
import {
  loginRequestSchema,
  passwordChangeSchema,
  profileUpdateSchema,
} from '@furniture/contracts';
import { input, requireAuth } from '@furniture/platform';
import type { AuthService } from '../../domain/auth-service';
import { toPublicUser } from '../../domain/records';

export function authRouter(auth: AuthService): Router {
  const r = Router();

  r.post('/login', async (req, res) => {
    const body = input.body(req, loginRequestSchema);
    res.json(await auth.login(body.email, body.password, req.ip ?? 'unknown'));
  });

  r.get('/me', requireAuth, async (req, res) => {
    res.json(toPublicUser(await auth.current(req.actor!)));
  });

  r.post('/refresh', requireAuth, async (req, res) => {
    res.json(await auth.refresh(req.actor!));
  });

  r.post('/logout', requireAuth, async (req, res) => {
    await auth.logout(req.actor!);
    res.json({ success: true });
  });

  r.patch('/profile', requireAuth, async (req, res) => {
    res.json(await auth.updateProfile(req.actor!, input.body(req, profileUpdateSchema)));
  });

  r.patch('/password', requireAuth, async (req, res) => {
    res.json({
      success: true,
      ...(await auth.changePassword(req.actor!, input.body(req, passwordChangeSchema))),
    });
  });

  return r;
}
