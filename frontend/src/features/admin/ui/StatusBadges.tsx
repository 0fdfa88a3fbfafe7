import { useTranslation } from 'react-i18next';
import type {
  ApplicationStatus,
  DonationStatus,
  LotStatus,
  WishStatus,
} from '@furniture/contracts/enums';
import { Badge, type BadgeTone } from '../../../components/Badge';

const LOT_TONES: Record<LotStatus, BadgeTone> = {
  available: 'green',
  reserved: 'amber',
  transferred: 'sky',
  taken: 'slate',
  archived: 'slate',
};
const APPLICATION_TONES: Record<ApplicationStatus, BadgeTone> = {
  pending: 'amber',
  approved: 'green',
  rejected: 'red',
  completed: 'blue',
};
const WISH_TONES: Record<WishStatus, BadgeTone> = {
  active: 'blue',
  fulfilled: 'green',
  cancelled: 'slate',
};

const DONATION_TONES: Record<DonationStatus, BadgeTone> = {
  submitted: 'amber',
  accepted: 'green',
  declined: 'red',
  collected: 'blue',
  cancelled: 'slate',
  expired: 'slate',
};

export function LotStatusBadge({ status }: { status: LotStatus }) {
  const { t } = useTranslation('admin');
  return <Badge tone={LOT_TONES[status] ?? 'slate'}>{t(`lotStatus.${status}`)}</Badge>;
}

export function ApplicationStatusBadge({ status }: { status: ApplicationStatus }) {
  const { t } = useTranslation('admin');
  return (
    <Badge tone={APPLICATION_TONES[status] ?? 'slate'}>{t(`applicationStatus.${status}`)}</Badge>
  );
}

export function WishStatusBadge({ status }: { status: WishStatus }) {
  const { t } = useTranslation('admin');
  return <Badge tone={WISH_TONES[status] ?? 'slate'}>{t(`wishStatus.${status}`)}</Badge>;
}

export function DonationStatusBadge({ status }: { status: DonationStatus }) {
  const { t } = useTranslation('admin');
  return <Badge tone={DONATION_TONES[status] ?? 'slate'}>{t(`donationStatus.${status}`)}</Badge>;
}
