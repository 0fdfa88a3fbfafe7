// The catalog's public entry: what other features use of it (frontend/README.md, feature boundaries).
export { CategoryIconView } from './lib/category-icon';
export { useCategories } from './api/catalog-api';
