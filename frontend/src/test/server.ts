import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

/** Absolute API address as the app calls it under jsdom. */
export const apiUrl = (path: string) => `http://localhost/api/v1${path}`;

/** A message channel as GET /messages/status answers it: on, no budget, nothing to warn of. */
export const quietChannel = {
  enabled: true,
  used: 0,
  budget: null,
  warning: false,
  spent: false,
  reachable: true,
};

/**
 * What every back-office page asks besides its own calls: the administrators' layout reads the
 * message channels' state for its budget banner (issue 30). A test that cares answers it itself
 * (`server.use` handlers come first); these stay after `resetHandlers()`.
 */
const defaults = [
  http.get(apiUrl('/messages/status'), () =>
    HttpResponse.json({
      success: true,
      data: { whatsapp: quietChannel, sms: quietChannel, failed: 0, month: '2026-03' },
    }),
  ),
];

/** The API as tests see it: each test adds its handlers with `server.use(...)`. */
export const server = setupServer(...defaults);
