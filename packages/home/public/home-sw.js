// The web app's offline shell. Pages are fetched from the hub first and the last one kept; when the hub cannot be
// reached the kept shell opens instead of the browser's error page, and the app says the hub is unreachable.
// Hashed assets never change, so they are answered from the cache once kept. The API and the socket are never
// cached: what the app shows of the home is always live.
const CACHE = 'hearth-home-shell-v1';
const SHELL = '/';

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

const keep = (request, response) => {
  if (response.ok) {
    const copy = response.clone();
    void caches.open(CACHE).then((cache) => cache.put(request, copy));
  }
  return response;
};

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    event.respondWith(
      fetch(request)
        .then((response) => keep(SHELL, response))
        .catch(async () => (await caches.match(SHELL)) ?? Response.error()),
    );
    return;
  }
  if (url.pathname.startsWith('/home/')) {
    event.respondWith(caches.match(request).then((hit) => hit ?? fetch(request).then((response) => keep(request, response))));
  }
});
