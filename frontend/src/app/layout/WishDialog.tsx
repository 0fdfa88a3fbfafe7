import { useCategories } from '../../features/catalog/api/catalog-api';
import WishModal from '../../features/wishes/components/WishModal';

/** The wish modal with the categories to choose from (loaded lazily with the store). */
export default function WishDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { data, isError } = useCategories();
  return (
    <WishModal
      open={open}
      onClose={onClose}
      categories={data ?? []}
      categoriesFailed={isError && !data}
    />
  );
}
