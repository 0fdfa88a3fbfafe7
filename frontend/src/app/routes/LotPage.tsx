import { useParams } from 'react-router';
import { LotActions } from '../../features/applications/components/LotActions';
import { QueuePanel } from '../../features/applications/components/QueuePanel';
import { LotDetail } from '../../features/catalog/components/LotDetail';
import { LotNotFound } from '../../features/catalog/components/LotNotFound';

/** /lots/{lotId}: the catalog's lot with the applications feature's action and queue panel. */
export default function LotPage() {
  const { lotId = '' } = useParams();
  const id = /^\d{1,12}$/.test(lotId) ? Number(lotId) : 0;
  if (id < 1) return <LotNotFound />;
  return (
    <LotDetail
      key={id}
      lotId={id}
      actions={(lot) => <LotActions lot={lot} />}
      queue={(lot) => <QueuePanel lot={lot} />}
    />
  );
}
