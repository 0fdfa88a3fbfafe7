import { Router, type Request } from 'express';
import {
  categoryCreateSchema,
  categoryUpdateSchema,
  idParamSchema,
  type CategoriesAnswer,
  type Category,
  type CategoryAnswer,
  type DeletedAnswer,
} from '@furniture/contracts';
import { input, requireStaff, sendShareableJson } from '@furniture/platform';
import type { CategoriesService } from '../../domain/categories-service';
import { message, type MessageKey } from './messages';

/** /api/v1/categories: reads are public, writes need a staff token (admin or volunteer). */
export function categoriesRouter(categories: CategoriesService, shareSeconds = 0): Router {
  const r = Router();

  r.get('/', async (_req, res) => {
    const answer: CategoriesAnswer = { success: true, data: await categories.list() };
    sendShareableJson(res, answer, shareSeconds);
  });

  /** A category with the answer's message, in the request's language. */
  const answer = (req: Request, key: MessageKey, data: Category): CategoryAnswer => ({
    success: true,
    data,
    message: message(req, key),
  });

  // an id, a numeric string or one of the eight slugs, like /lots/category/{id}
  r.get('/:ref', async (req, res) => {
    res.json(answer(req, 'category_loaded', await categories.get(String(req.params.ref))));
  });

  r.post('/', requireStaff, async (req, res) => {
    const data = await categories.create(req.actor!, input.body(req, categoryCreateSchema));
    res.status(201).json(answer(req, 'category_created', data));
  });

  r.put('/:id', requireStaff, async (req, res) => {
    const { id } = input.params(req, idParamSchema);
    const data = await categories.update(req.actor!, id, input.body(req, categoryUpdateSchema));
    res.json(answer(req, 'category_updated', data));
  });

  r.delete('/:id', requireStaff, async (req, res) => {
    await categories.delete(req.actor!, input.params(req, idParamSchema).id);
    const answer: DeletedAnswer = { success: true, message: message(req, 'category_deleted') };
    res.json(answer);
  });

  return r;
}
