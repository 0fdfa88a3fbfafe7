import { Router } from 'express';
import {
  categoryCreateSchema,
  categoryUpdateSchema,
  idParamSchema,
  type CategoriesAnswer,
  type CategoryAnswer,
  type DeletedAnswer,
} from '@furniture/contracts';
import { input, requireStaff } from '@furniture/platform';
import type { CategoriesService } from '../../domain/categories-service';
import { message } from './messages';
import { sendShareableJson } from './shareable-json';

/** /api/v1/categories: reads are public, writes need a staff token (admin or volunteer). */
export function categoriesRouter(categories: CategoriesService, shareSeconds = 0): Router {
  const r = Router();

  r.get('/', async (_req, res) => {
    const answer: CategoriesAnswer = { success: true, data: await categories.list() };
    sendShareableJson(res, answer, shareSeconds);
  });

  // an id, a numeric string or one of the eight slugs, like /lots/category/{id}
  r.get('/:ref', async (req, res) => {
    const answer: CategoryAnswer = {
      success: true,
      data: await categories.get(String(req.params.ref)),
      message: message(req, 'category_loaded'),
    };
    res.json(answer);
  });

  r.post('/', requireStaff, async (req, res) => {
    const data = await categories.create(req.actor!, input.body(req, categoryCreateSchema));
    const answer: CategoryAnswer = {
      success: true,
      data,
      message: message(req, 'category_created'),
    };
    res.status(201).json(answer);
  });

  r.put('/:id', requireStaff, async (req, res) => {
    const { id } = input.params(req, idParamSchema);
    const data = await categories.update(req.actor!, id, input.body(req, categoryUpdateSchema));
    const answer: CategoryAnswer = {
      success: true,
      data,
      message: message(req, 'category_updated'),
    };
    res.json(answer);
  });

  r.delete('/:id', requireStaff, async (req, res) => {
    await categories.delete(req.actor!, input.params(req, idParamSchema).id);
    const answer: DeletedAnswer = { success: true, message: message(req, 'category_deleted') };
    res.json(answer);
  });

  return r;
}
