import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { createCloud } from './features/auth/session';
// The base all Hearth pages share, then the account pages' own sheet over it.
import '@hearth/client/styles/base.css';
import './styles.css';

const root = document.getElementById('account-root');
if (root) createRoot(root).render(<App cloud={createCloud(window.location.origin)} />);
