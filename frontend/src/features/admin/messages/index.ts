// The messages' public entry (issue 30): what the applications, wishes and donations screens and
// the layout show of it.
export { BudgetBanner } from './components/BudgetBanner';
export { MessagesSection, type FamilyNumber } from './components/MessagesSection';
