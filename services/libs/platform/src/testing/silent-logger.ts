import pino from 'pino';

/** The tests' logger: silent unless TEST_LOG_LEVEL says otherwise. */
export const silentLogger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
