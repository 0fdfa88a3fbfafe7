export default function Stub() {
  return <h1>stub categories/components/CategoriesPage</h1>;
}
