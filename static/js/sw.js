// The service worker: the app shell and static files from the cache, pages from the network
// first, and the last copy of a page this browser opened when the network is gone.
const CACHE = "scorekeeper-v2";
const SHELL = ["/"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(fromCacheFirst(request));
  } else if (request.mode === "navigate") {
    event.respondWith(fromNetworkFirst(request));
  }
  // Everything else (htmx fragments, polls, the API) goes to the network only: a fragment
  // from the cache would show a stale state without saying so.
});

// Static URLs carry their file's content hash (?v=…): a cached copy is right forever, and a
// new version of a file replaces the older ones of its path.
async function fromCacheFirst(request) {
  const cached = await caches.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) {
    const cache = await caches.open(CACHE);
    const path = new URL(request.url).pathname;
    for (const old of await cache.keys()) {
      if (new URL(old.url).pathname === path) await cache.delete(old);
    }
    await cache.put(request, response.clone());
  }
  return response;
}

async function fromNetworkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok && (response.headers.get("Content-Type") || "").startsWith("text/html")) {
      const stamped = new Headers(response.headers);
      stamped.set("X-Cached-At", String(Date.now()));
      const body = await response.clone().arrayBuffer();
      await cache.put(request, new Response(body, { status: 200, headers: stamped }));
    } else if ([403, 404, 410].includes(response.status)) {
      await cache.delete(request); // a replaced or unknown link keeps nothing of its game
    }
    return response;
  } catch (error) {
    const cached = (await cache.match(request)) || (await cache.match("/"));
    if (!cached) throw error;
    return markedOffline(cached);
  }
}

async function markedOffline(cached) {
  // The page says when its state was current; app.js shows the offline banner from this.
  const since = cached.headers.get("X-Cached-At") || String(Date.now());
  const html = (await cached.text()).replace("<body", `<body data-offline-since="${since}"`);
  return new Response(html, { status: 200, headers: { "Content-Type": "text/html; charset=utf-8" } });
}
