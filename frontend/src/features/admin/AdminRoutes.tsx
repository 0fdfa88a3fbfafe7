import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { PageSpinner } from '../../components/Spinner';
import { AdminLayout, AdminNotFound } from './layout';
import {
  RequireAdmin,
  RequireAuth,
  RequireReferrer,
  RequireStaff,
  useSession,
  useSessionRestore,
  useSessionStorageSync,
} from './session';
import { ToastProvider } from './ui/Toasts';

/*
 * The staff back-office (back-office §2). The router loads this module lazily under /admin/*,
 * so all of it stays out of the public pages' chunks; each screen is a chunk of its own.
 */
const LoginPage = lazy(() => import('./session/components/LoginPage'));
const ProfilePage = lazy(() => import('./profile/components/ProfilePage'));
const UsersPage = lazy(() => import('./users/components/UsersPage'));
const CategoriesPage = lazy(() => import('./categories/components/CategoriesPage'));
const CategoryFormPage = lazy(() => import('./categories/components/CategoryFormPage'));
const LotsPage = lazy(() => import('./lots/components/LotsPage'));
const LotFormPage = lazy(() => import('./lots/components/LotFormPage'));
const LotDetailPage = lazy(() => import('./lots/components/LotDetailPage'));
const ApplicationsPage = lazy(() => import('./applications/components/ApplicationsPage'));
const WishesPage = lazy(() => import('./wishes/components/WishesPage'));
const WishDetailPage = lazy(() => import('./wishes/components/WishDetailPage'));
const DonationsPage = lazy(() => import('./donations/components/DonationsPage'));
const DonationDetailPage = lazy(() => import('./donations/components/DonationDetailPage'));
const DonationLotPage = lazy(() => import('./donations/components/DonationLotPage'));
const DayPlanPage = lazy(() => import('./handovers/components/DayPlanPage'));
const SlotsPage = lazy(() => import('./handovers/components/SlotsPage'));
const LocationsPage = lazy(() => import('./handovers/components/LocationsPage'));
const ScanPage = lazy(() => import('./warehouse/components/ScanPage'));
const StoragePlacesPage = lazy(() => import('./warehouse/components/StoragePlacesPage'));
const StockCountPage = lazy(() => import('./warehouse/components/StockCountPage'));
const MessagesPage = lazy(() => import('./messages/components/MessagesPage'));
const ActivityPage = lazy(() => import('./activity/components/ActivityPage'));
const ImpactPage = lazy(() => import('./impact/components/ImpactPage'));
const PrivacyPage = lazy(() => import('./privacy/components/PrivacyPage'));
const AgenciesPage = lazy(() => import('./partners/components/AgenciesPage'));
const InvitationPage = lazy(() => import('./partners/components/InvitationPage'));
const ReferralsPage = lazy(() => import('./referrals/components/ReferralsPage'));
const ReferralFormPage = lazy(() => import('./referrals/components/ReferralFormPage'));

export function AdminRoutes() {
  useSessionStorageSync();
  useSessionRestore();
  // a session of an earlier visit is picked up before any page (or the login) shows
  if (useSession().restoring) return <PageSpinner />;
  return (
    <Suspense fallback={<PageSpinner />}>
      <ToastProvider>
        <Routes>
          <Route path="login" element={<LoginPage />} />
          {/* the invitation mail's link (issue 44): before there is an account */}
          <Route path="invitation/:token" element={<InvitationPage />} />
          <Route
            element={
              <RequireAuth>
                <AdminLayout />
              </RequireAuth>
            }
          >
            {/* a partner agency's referrer (issue 44): its families, nothing else */}
            <Route element={<RequireReferrer />}>
              <Route path="referrals" element={<ReferralsPage />} />
              <Route path="referrals/new" element={<ReferralFormPage />} />
            </Route>
            <Route element={<RequireStaff />}>
              <Route index element={<Navigate to="/admin/categories" replace />} />
              <Route path="profile" element={<ProfilePage />} />
              <Route
                path="users"
                element={
                  <RequireAdmin>
                    <UsersPage />
                  </RequireAdmin>
                }
              />
              <Route path="categories" element={<CategoriesPage />} />
              <Route path="categories/new" element={<CategoryFormPage />} />
              <Route path="categories/:categoryId/edit" element={<CategoryFormPage />} />
              <Route path="wishes" element={<WishesPage />} />
              <Route path="wishes/:wishId" element={<WishDetailPage />} />
              <Route path="donations" element={<DonationsPage />} />
              <Route path="donations/:donationId" element={<DonationDetailPage />} />
              <Route path="donations/:donationId/items/:itemId/lot" element={<DonationLotPage />} />
              <Route path="lots" element={<LotsPage />} />
              <Route path="lots/new" element={<LotFormPage />} />
              <Route path="lots/:lotId" element={<LotDetailPage />} />
              <Route path="lots/:lotId/edit" element={<LotFormPage />} />
              <Route path="applications" element={<ApplicationsPage />} />
              <Route path="handovers" element={<DayPlanPage />} />
              <Route path="handovers/slots" element={<SlotsPage />} />
              <Route path="handovers/locations" element={<LocationsPage />} />
              <Route path="scan" element={<ScanPage />} />
              <Route path="scan/:code" element={<ScanPage />} />
              <Route path="storage-places" element={<StoragePlacesPage />} />
              <Route path="storage-places/:placeId/count" element={<StockCountPage />} />
              <Route path="messages" element={<MessagesPage />} />
              <Route
                path="activity"
                element={
                  <RequireAdmin>
                    <ActivityPage />
                  </RequireAdmin>
                }
              />
              <Route
                path="impact"
                element={
                  <RequireAdmin>
                    <ImpactPage />
                  </RequireAdmin>
                }
              />
              <Route
                path="privacy"
                element={
                  <RequireAdmin>
                    <PrivacyPage />
                  </RequireAdmin>
                }
              />
              <Route
                path="agencies"
                element={
                  <RequireAdmin>
                    <AgenciesPage />
                  </RequireAdmin>
                }
              />
              <Route path="*" element={<AdminNotFound />} />
            </Route>
          </Route>
        </Routes>
      </ToastProvider>
    </Suspense>
  );
}

export default AdminRoutes;
