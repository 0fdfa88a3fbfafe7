/**
 * Placeholder for the staff back-office (issue #8). The router loads this module lazily under
 * /admin/*, so everything it imports lands in its own chunks, away from the public pages.
 */
export function AdminRoutes() {
  return null;
}

export default AdminRoutes;
