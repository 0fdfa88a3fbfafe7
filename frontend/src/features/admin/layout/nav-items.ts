import type { LucideIcon } from 'lucide-react';
import {
  Activity,
  Building2,
  ChartColumnBig,
  CalendarRange,
  ClipboardList,
  Heart,
  HandHeart,
  MapPin,
  MessagesSquare,
  Package,
  ScanLine,
  ShieldCheck,
  Tags,
  Truck,
  UserCircle,
  UserPlus,
  Users,
  Warehouse,
} from 'lucide-react';
import type { Role } from '@furniture/contracts/enums';

export interface NavItem {
  to: string;
  /** key under admin:nav */
  key: string;
  icon: LucideIcon;
  /** who sees it: administrators, all staff, or a partner agency's referrer (issue 44) */
  audience: 'admin' | 'staff' | 'referrer';
  /** active only on its own address, not on the addresses below it */
  end?: boolean;
}

/**
 * The sidebar of back-office §2, in its order; users, partner agencies, activity, impact and data
 * protection are for administrators. The handovers' three entries follow the applications. A
 * referrer (issue 44) sees its families and nothing else of the back-office.
 */
export const NAV_ITEMS: readonly NavItem[] = [
  { to: '/admin/users', key: 'users', icon: Users, audience: 'admin' },
  { to: '/admin/agencies', key: 'agencies', icon: Building2, audience: 'admin' },
  { to: '/admin/categories', key: 'categories', icon: Tags, audience: 'staff' },
  { to: '/admin/wishes', key: 'wishes', icon: Heart, audience: 'staff' },
  { to: '/admin/donations', key: 'donations', icon: HandHeart, audience: 'staff' },
  { to: '/admin/lots', key: 'lots', icon: Package, audience: 'staff' },
  { to: '/admin/applications', key: 'applications', icon: ClipboardList, audience: 'staff' },
  // the handovers (issue 29): the day plan, the slots, the locations
  { to: '/admin/handovers', key: 'handovers', icon: Truck, audience: 'staff', end: true },
  { to: '/admin/handovers/slots', key: 'slots', icon: CalendarRange, audience: 'staff' },
  { to: '/admin/handovers/locations', key: 'locations', icon: MapPin, audience: 'staff' },
  // the warehouse (issue 45): scan a label, the storage places and their counts
  { to: '/admin/scan', key: 'scan', icon: ScanLine, audience: 'staff' },
  { to: '/admin/storage-places', key: 'storagePlaces', icon: Warehouse, audience: 'staff' },
  // WhatsApp and SMS (issue 30): channels, failed messages, opt-outs
  { to: '/admin/messages', key: 'messages', icon: MessagesSquare, audience: 'staff' },
  { to: '/admin/activity', key: 'activity', icon: Activity, audience: 'admin' },
  { to: '/admin/impact', key: 'impact', icon: ChartColumnBig, audience: 'admin' },
  { to: '/admin/privacy', key: 'privacy', icon: ShieldCheck, audience: 'admin' },
  { to: '/admin/profile', key: 'profile', icon: UserCircle, audience: 'staff' },
  { to: '/admin/referrals', key: 'referrals', icon: UserPlus, audience: 'referrer' },
];

export function navItemsFor(role: Role | undefined): NavItem[] {
  return NAV_ITEMS.filter((item) =>
    role === 'referrer'
      ? item.audience === 'referrer'
      : item.audience === 'staff' || (item.audience === 'admin' && role === 'admin'),
  );
}
