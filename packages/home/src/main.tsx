import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { applyTheme } from './lib/theme';
// The style sheets in cascade order: the base all Hearth pages share; the app's theme and layout, then what pages
// show, then page-specific parts.
import '@hearth/client/styles/base.css';
import './styles/base.css';
import './styles/content.css';
import './styles/pages.css';

// The theme chosen in this browser, before the first paint of the app.
applyTheme();

const root = document.getElementById('home-root');
if (root) createRoot(root).render(<App />);

// The offline shell: with the hub out of reach the app still opens and says so (public/home-sw.js).
if ('serviceWorker' in navigator && window.isSecureContext) {
  navigator.serviceWorker
    .register('/home-sw.js', { scope: '/' })
    .catch((error: unknown) => console.warn('No offline shell', error));
}
