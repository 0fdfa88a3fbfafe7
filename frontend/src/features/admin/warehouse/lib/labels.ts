import { env } from '../../../../config/env';
import { downloadWithSession, type SessionStore } from '../../lib/download';

const apiUrl = (path: string) => new URL(`${env.apiBaseUrl}${path}`, window.location.origin);

/**
 * A label as PDF, downloaded with the staff session (an address opened in a tab would carry no
 * token), to print from the phone's or computer's PDF viewer.
 */
export function downloadLotLabel(store: SessionStore, lotId: number): Promise<void> {
  return downloadWithSession(store, apiUrl(`/lots/${lotId}/label.pdf`), `lot-${lotId}.pdf`);
}

export function downloadPlaceLabel(store: SessionStore, placeId: number): Promise<void> {
  return downloadWithSession(
    store,
    apiUrl(`/storage-places/${placeId}/label.pdf`),
    `lagerplatz-${placeId}.pdf`,
  );
}

/** An A4 sheet of several lots' labels (e.g. every lot made from one donation). */
export function downloadLabelSheet(store: SessionStore, lotIds: number[]): Promise<void> {
  const url = apiUrl('/labels.pdf');
  url.searchParams.set('lot_ids', lotIds.join(','));
  return downloadWithSession(store, url, 'etiketten.pdf');
}
