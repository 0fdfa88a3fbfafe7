import { setupServer } from 'msw/node';

/** The API as tests see it: each test adds its handlers with `server.use(...)`. */
export const server = setupServer();

/** Absolute API address as the app calls it under jsdom. */
export const apiUrl = (path: string) => `http://localhost/api/v1${path}`;
