import { Router } from 'express';
import {
  agencyCreateSchema,
  agencyPatchSchema,
  idParamSchema,
  invitationAcceptSchema,
  invitationCreateSchema,
  invitationTokenParamSchema,
} from '@furniture/contracts';
import { AppError, input, requireAdmin } from '@furniture/platform';
import type { PartnersService } from '../../domain/partners-service';

/** Partner agencies and their invitations (issue 44): administrators only. */
export function agenciesRouter(partners: PartnersService): Router {
  const r = Router();
  r.use(requireAdmin);

  r.get('/', async (_req, res) => {
    res.json(await partners.list());
  });

  r.post('/', async (req, res) => {
    res.status(201).json(await partners.create(req.actor!, input.body(req, agencyCreateSchema)));
  });

  r.patch('/:id', async (req, res) => {
    const { id } = input.params(req, idParamSchema);
    res.json(await partners.update(req.actor!, id, input.body(req, agencyPatchSchema)));
  });

  r.post('/:id/invitations', async (req, res) => {
    const { id } = input.params(req, idParamSchema);
    const body = input.body(req, invitationCreateSchema);
    res.status(201).json(await partners.invite(req.actor!, id, body));
  });

  return r;
}

/**
 * The invited person's call: public, keyed by the link's secret (an unknown or spent one is 404;
 * the gateway's budget for secret-keyed calls bounds guessing).
 */
export function invitationsRouter(partners: PartnersService): Router {
  const r = Router();
  r.post('/:token/accept', async (req, res) => {
    const parsed = invitationTokenParamSchema.safeParse(req.params);
    if (!parsed.success) throw new AppError('INVITATION_NOT_FOUND');
    const body = input.body(req, invitationAcceptSchema);
    res.status(201).json(await partners.accept(parsed.data.token, body));
  });
  return r;
}
