// The back-office categories' public entry: what other screens use of them (frontend/README.md).
export { useGetAdminCategoriesQuery } from './api/categories-api';
export { categoryLotCountText } from './category-rules';
