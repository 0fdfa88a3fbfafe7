// Partner agencies' public entry (issue 44): what the users form and the applications screen use.
export { useGetAgenciesQuery, type Agency } from './api/partners-api';
