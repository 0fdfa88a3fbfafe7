/** Placeholder shell; the public site and the back-office replace it. */
export function App() {
  return (
    <main className="mx-auto max-w-3xl p-6">
      <h1 className="text-2xl font-bold">Möbelbrücke</h1>
      <p lang="uk">Безкоштовні меблі для родин, які цього потребують.</p>
    </main>
  );
}
