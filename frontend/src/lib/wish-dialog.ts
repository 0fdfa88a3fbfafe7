import { createContext, useContext } from 'react';

/** Opens the wish modal from the header, the mobile menu or the footer. */
export const WishDialogContext = createContext<() => void>(() => undefined);

export function useOpenWishDialog(): () => void {
  return useContext(WishDialogContext);
}
