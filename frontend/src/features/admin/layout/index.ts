// The back-office frame's public entry (frontend/README.md, feature boundaries).
export { AdminLayout } from './components/AdminLayout';
export { AdminNotFound } from './components/AdminNotFound';
