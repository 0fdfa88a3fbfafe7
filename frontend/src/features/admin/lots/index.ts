// The back-office lots' public entry: what other screens use of them (frontend/README.md).
export { thumbnailOf } from './lib/photo-list';
