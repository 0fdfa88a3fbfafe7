import type { LucideIcon } from 'lucide-react';
import {
  CheckCheck,
  CheckCircle2,
  CircleAlert,
  Download,
  Eraser,
  ImageMinus,
  ImagePlus,
  KeyRound,
  LogIn,
  LogOut,
  MessageCircle,
  Pencil,
  PlusCircle,
  RefreshCw,
  RotateCcw,
  StickyNote,
  Trash2,
  Undo2,
  Upload,
  XCircle,
  CircleDot,
} from 'lucide-react';

/** Icon and colour per action type (back-office §2 Activity log). */
const STYLES: Record<string, { icon: LucideIcon; tone: string }> = {
  LOGIN: { icon: LogIn, tone: 'bg-blue-100 text-blue-800' },
  LOGOUT: { icon: LogOut, tone: 'bg-slate-200 text-slate-700' },
  PASSWORD_CHANGE: { icon: KeyRound, tone: 'bg-violet-100 text-violet-800' },
  CREATE: { icon: PlusCircle, tone: 'bg-green-100 text-green-800' },
  UPDATE: { icon: Pencil, tone: 'bg-blue-100 text-blue-800' },
  DELETE: { icon: Trash2, tone: 'bg-red-100 text-red-800' },
  APPROVE: { icon: CheckCircle2, tone: 'bg-green-100 text-green-800' },
  APPROVAL_FAILED: { icon: CircleAlert, tone: 'bg-amber-100 text-amber-900' },
  REJECT: { icon: XCircle, tone: 'bg-red-100 text-red-800' },
  STATUS_CHANGE: { icon: RefreshCw, tone: 'bg-amber-100 text-amber-800' },
  CONTACT: { icon: MessageCircle, tone: 'bg-sky-100 text-sky-800' },
  NOTE_ADD: { icon: StickyNote, tone: 'bg-amber-100 text-amber-800' },
  COMPLETE: { icon: CheckCheck, tone: 'bg-green-100 text-green-800' },
  CANCEL_RESERVATION: { icon: Undo2, tone: 'bg-amber-100 text-amber-800' },
  RECONSIDER: { icon: RotateCcw, tone: 'bg-sky-100 text-sky-800' },
  PHOTO_UPLOAD: { icon: ImagePlus, tone: 'bg-green-100 text-green-800' },
  PHOTO_DELETE: { icon: ImageMinus, tone: 'bg-red-100 text-red-800' },
  EXPORT: { icon: Download, tone: 'bg-slate-200 text-slate-700' },
  IMPORT: { icon: Upload, tone: 'bg-slate-200 text-slate-700' },
  ERASE: { icon: Eraser, tone: 'bg-red-100 text-red-800' },
};

export const actionStyle = (action: string) =>
  STYLES[action] ?? { icon: CircleDot, tone: 'bg-slate-200 text-slate-700' };
