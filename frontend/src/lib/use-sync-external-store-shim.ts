/**
 * react-i18next imports `use-sync-external-store/shim`, a fallback for React versions before 18.
 * React 19 has the hook built in; the build points the shim here (vite.config.ts).
 */
export { useSyncExternalStore } from 'react';
