import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { createCloud } from './features/auth/session';
import './styles.css';

const root = document.getElementById('account-root');
if (root) createRoot(root).render(<App cloud={createCloud(window.location.origin)} />);
