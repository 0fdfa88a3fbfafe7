export default function Stub() {
  return <h1>stub lots/components/LotDetailPage</h1>;
}
