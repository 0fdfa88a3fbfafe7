export default function Stub() {
  return <h1>stub users/components/UsersPage</h1>;
}
