export * from './enums';
export * from './limits';
export * from './errors';
export * from './validation';
export * from './phone';
export * from './events';
export * from './api/common';
export * from './api/auth';
