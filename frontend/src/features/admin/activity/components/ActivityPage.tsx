export default function Stub() {
  return <h1>stub activity/components/ActivityPage</h1>;
}
