import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The API, uploaded images and sockets are served by the Node server; in dev Vite forwards them so the
// app stays same-origin (cookies and CSRF work exactly as in production).
const server = 'http://127.0.0.1:3000';

export default defineConfig({
  // Pinned to this folder so the build works whether it is started from web/ or from the repo root.
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  build: {
    outDir: 'dist',
    // /assets/* belongs to the server's images (communities, users, games); bundles go elsewhere.
    assetsDir: 'static',
    emptyOutDir: true,
  },
  server: {
    proxy: {
      '/api': server,
      '/assets': server,
      '/socket.io': { target: server, ws: true },
    },
  },
});
