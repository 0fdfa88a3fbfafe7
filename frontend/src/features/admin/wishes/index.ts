// The back-office wishes' public entry: what other screens use of them (frontend/README.md).
export { LotWishMatches } from './components/WishMatches';
