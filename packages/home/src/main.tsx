import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import './styles.css';

const root = document.getElementById('home-root');
if (root) createRoot(root).render(<App />);
