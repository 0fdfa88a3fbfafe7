import { render, screen } from '@testing-library/react';
import { App } from './App';

test('when the app renders, then the platform name is the main heading', () => {
  render(<App />);
  expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Möbelbrücke');
});
