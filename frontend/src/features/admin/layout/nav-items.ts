import type { LucideIcon } from 'lucide-react';
import {
  Activity,
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
  Users,
  Warehouse,
} from 'lucide-react';
import type { Role } from '@furniture/contracts/enums';

export interface NavItem {
  to: string;
  /** key under admin:nav */
  key: string;
  icon: LucideIcon;
  adminOnly: boolean;
  /** active only on its own address, not on the addresses below it */
  end?: boolean;
}

/**
 * The sidebar of back-office §2, in its order; users, activity, impact and data protection are
 * for administrators. The handovers' three entries follow the applications.
 */
export const NAV_ITEMS: readonly NavItem[] = [
  { to: '/admin/users', key: 'users', icon: Users, adminOnly: true },
  { to: '/admin/categories', key: 'categories', icon: Tags, adminOnly: false },
  { to: '/admin/wishes', key: 'wishes', icon: Heart, adminOnly: false },
  { to: '/admin/donations', key: 'donations', icon: HandHeart, adminOnly: false },
  { to: '/admin/lots', key: 'lots', icon: Package, adminOnly: false },
  { to: '/admin/applications', key: 'applications', icon: ClipboardList, adminOnly: false },
  // the handovers (issue 29): the day plan, the slots, the locations
  { to: '/admin/handovers', key: 'handovers', icon: Truck, adminOnly: false, end: true },
  { to: '/admin/handovers/slots', key: 'slots', icon: CalendarRange, adminOnly: false },
  { to: '/admin/handovers/locations', key: 'locations', icon: MapPin, adminOnly: false },
  // the warehouse (issue 45): scan a label, the storage places and their counts
  { to: '/admin/scan', key: 'scan', icon: ScanLine, adminOnly: false },
  { to: '/admin/storage-places', key: 'storagePlaces', icon: Warehouse, adminOnly: false },
  // WhatsApp and SMS (issue 30): channels, failed messages, opt-outs
  { to: '/admin/messages', key: 'messages', icon: MessagesSquare, adminOnly: false },
  { to: '/admin/activity', key: 'activity', icon: Activity, adminOnly: true },
  { to: '/admin/impact', key: 'impact', icon: ChartColumnBig, adminOnly: true },
  { to: '/admin/privacy', key: 'privacy', icon: ShieldCheck, adminOnly: true },
  { to: '/admin/profile', key: 'profile', icon: UserCircle, adminOnly: false },
];

export function navItemsFor(role: Role | undefined): NavItem[] {
  return NAV_ITEMS.filter((item) => !item.adminOnly || role === 'admin');
}
