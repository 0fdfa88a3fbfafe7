export default function Stub() {
  return <h1>stub applications/components/ApplicationsPage</h1>;
}
