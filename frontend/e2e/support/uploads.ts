// What a page's uploads did, seen from inside the page: every value each progress bar showed
// (the bars vanish a second after their photo arrived) and every file sent in a form.
import type { Page } from 'playwright-core';

/** Every value a progress bar showed, per bar name (recorded in the page, bars vanish after 1 s). */
export async function recordProgressBars(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: Record<string, number[]> = {};
    (window as unknown as { __progress: typeof seen }).__progress = seen;
    const note = () => {
      for (const bar of Array.from(document.querySelectorAll('[role="progressbar"]'))) {
        const name = bar.getAttribute('aria-label') ?? '';
        const value = Number(bar.getAttribute('aria-valuenow'));
        const list = (seen[name] ??= []);
        if (list.at(-1) !== value) list.push(value);
      }
    };
    new MutationObserver(note).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['aria-valuenow'],
    });
  });
}

export const progressSeen = (page: Page) =>
  page.evaluate(() => (window as unknown as { __progress: Record<string, number[]> }).__progress);

export interface SentFile {
  name: string;
  type: string;
  width: number;
  height: number;
  sha256: string;
}

/**
 * Records every file the page sends in a form through XMLHttpRequest: its name, type, pixel size
 * and SHA-256 (Chromium does not hand a multipart body of files to the test's request events).
 */
export async function recordSentFiles(page: Page): Promise<void> {
  await page.evaluate(() => {
    const sent: Promise<SentFile>[] = [];
    (window as unknown as { __sent: typeof sent }).__sent = sent;
    const send = XMLHttpRequest.prototype.send;
    XMLHttpRequest.prototype.send = function (this: XMLHttpRequest, body) {
      const file = body instanceof FormData ? body.get('file') : null;
      if (file instanceof File) {
        sent.push(
          (async () => {
            const bitmap = await createImageBitmap(file);
            const digest = await crypto.subtle.digest('SHA-256', await file.arrayBuffer());
            const sha256 = Array.from(new Uint8Array(digest), (b) =>
              b.toString(16).padStart(2, '0'),
            ).join('');
            const out = {
              name: file.name,
              type: file.type,
              width: bitmap.width,
              height: bitmap.height,
              sha256,
            };
            bitmap.close();
            return out;
          })(),
        );
      }
      send.call(this, body);
    };
  });
}

export const sentFiles = (page: Page) =>
  page.evaluate(() => Promise.all((window as unknown as { __sent: Promise<SentFile>[] }).__sent));
