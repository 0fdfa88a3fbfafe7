import { Router } from 'express';
import {
  idParamSchema,
  userCreateSchema,
  userUpdateSchema,
  usersQuerySchema,
} from '@furniture/contracts';
import { input, requireAdmin } from '@furniture/platform';
import type { UsersService } from '../../domain/users-service';

/** Staff user management: administrators only (volunteers get 403). */
export function usersRouter(users: UsersService): Router {
  const r = Router();
  r.use(requireAdmin);

  r.get('/', async (req, res) => {
    res.json(await users.list(input.query(req, usersQuerySchema)));
  });

  r.get('/:id', async (req, res) => {
    res.json(await users.get(input.params(req, idParamSchema).id));
  });

  r.post('/', async (req, res) => {
    res.status(201).json(await users.create(req.actor!, input.body(req, userCreateSchema)));
  });

  r.patch('/:id', async (req, res) => {
    const { id } = input.params(req, idParamSchema);
    res.json(await users.update(req.actor!, id, input.body(req, userUpdateSchema)));
  });

  r.delete('/:id', async (req, res) => {
    await users.delete(req.actor!, input.params(req, idParamSchema).id);
    res.json({ success: true });
  });

  return r;
}
