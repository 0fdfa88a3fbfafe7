import { useTranslation } from 'react-i18next';
import type { LotStatus } from '@furniture/contracts/enums';
import { Badge, type BadgeTone } from '../../../components/Badge';

const TONES: Record<LotStatus, BadgeTone> = {
  available: 'green',
  reserved: 'amber',
  transferred: 'sky',
  taken: 'slate',
  archived: 'slate',
};

export function LotStatusBadge({ status }: { status: LotStatus }) {
  const { t } = useTranslation('public');
  return <Badge tone={TONES[status]}>{t(`lotStatus.${status}`)}</Badge>;
}
