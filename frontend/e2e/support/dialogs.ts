// A dialog's round trip on a page loaded fresh: opened from the keyboard, a screenshot and no
// serious axe finding while open, Escape closes it and focus is back on the element that opened it.
import type { Locator, Page } from 'playwright-core';
import { expectAccessible } from './axe';
import { screenshot, visible } from './browser';

/** Waits until the opener has focus again (Headless UI and the app restore it a tick later). */
async function expectFocusBackOn(page: Page, opener: Locator, what: string): Promise<void> {
  const handle = await opener.elementHandle();
  const deadline = Date.now() + 3000;
  for (;;) {
    const back = await page.evaluate((el) => el === document.activeElement, handle);
    if (back) return;
    if (Date.now() > deadline) {
      const now = await page.evaluate(
        () =>
          `${document.activeElement?.tagName ?? 'none'} ${document.activeElement?.textContent?.slice(0, 40) ?? ''}`,
      );
      throw new Error(`after closing ${what}, focus is on ${now} instead of its opener`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Opens a dialog with Enter on `opener` (or `open()`), checks it with axe, closes it with
 * Escape and expects focus back on `returnTo` (the opener unless said otherwise).
 */
export async function dialogRoundTrip(
  page: Page,
  name: string,
  {
    opener,
    open,
    dialog,
    returnTo = opener,
  }: {
    opener: Locator;
    open?: () => Promise<void>;
    dialog: Locator;
    returnTo?: Locator;
  },
): Promise<void> {
  if (open) await open();
  else {
    await (await visible(opener)).focus();
    await page.keyboard.press('Enter');
  }
  // Headless UI's dialog element has no size of its own: open means something in it shows
  await visible(dialog.locator('h2, button'));
  await screenshot(page, `dialog-${name}`, { fullPage: false });
  // the dialog itself: the page behind it is inert while it is open (and checked on its own)
  await expectAccessible(page, `dialog-${name}`, {
    include: '[role="dialog"], [role="alertdialog"]',
  });
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  await expectFocusBackOn(page, returnTo, name);
}
