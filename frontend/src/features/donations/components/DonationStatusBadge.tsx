import { useTranslation } from 'react-i18next';
import type { DonationStatus } from '@furniture/contracts/enums';
import { Badge, type BadgeTone } from '../../../components/Badge';

const TONES: Record<DonationStatus, BadgeTone> = {
  submitted: 'amber',
  accepted: 'green',
  declined: 'red',
  collected: 'sky',
  cancelled: 'slate',
  expired: 'slate',
};

export function DonationStatusBadge({ status }: { status: DonationStatus }) {
  const { t } = useTranslation('donate');
  return <Badge tone={TONES[status] ?? TONES.submitted}>{t(`status.${status}`)}</Badge>;
}
