// The warehouse's public entry (issue 45): what other back-office screens show of it.
export { LotWarehouseSection } from './components/LotWarehouseSection';
export { downloadLabelSheet } from './lib/labels';
