import { useTranslation } from 'react-i18next';
import type { ApplicationStatus } from '@furniture/contracts/enums';
import { Badge, type BadgeTone } from '../../../components/Badge';

const TONES: Record<ApplicationStatus, BadgeTone> = {
  pending: 'amber',
  approved: 'green',
  rejected: 'red',
  completed: 'sky',
};

export function ApplicationStatusBadge({ status }: { status: ApplicationStatus }) {
  const { t } = useTranslation('public');
  return <Badge tone={TONES[status] ?? TONES.pending}>{t(`applicationStatus.${status}`)}</Badge>;
}
