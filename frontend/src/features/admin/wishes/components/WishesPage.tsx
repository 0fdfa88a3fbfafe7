export default function Stub() {
  return <h1>stub wishes/components/WishesPage</h1>;
}
