import { useTranslation } from 'react-i18next';
import type { HandoverStatus, SlotKind } from '@furniture/contracts/enums';
import { Badge, type BadgeTone } from '../../../../components/Badge';

const KIND_TONES: Record<SlotKind, BadgeTone> = {
  pickup: 'sky',
  delivery: 'violet',
  donor_pickup: 'amber',
};

const STATUS_TONES: Record<HandoverStatus, BadgeTone> = {
  booked: 'blue',
  done: 'green',
  absent: 'red',
  cancelled: 'slate',
  missed: 'amber',
};

export function SlotKindBadge({ kind }: { kind: SlotKind }) {
  const { t } = useTranslation('admin');
  return <Badge tone={KIND_TONES[kind] ?? 'slate'}>{t(`handovers.kind.${kind}`)}</Badge>;
}

export function HandoverStatusBadge({ status }: { status: HandoverStatus }) {
  const { t } = useTranslation('admin');
  return <Badge tone={STATUS_TONES[status] ?? 'slate'}>{t(`handovers.status.${status}`)}</Badge>;
}
