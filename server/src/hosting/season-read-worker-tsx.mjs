// The season reader's thread when the server runs from its TypeScript (tests, `npm run dev`): tsx
// compiles the worker's module. `npm start` runs server/dist/season-read-worker.mjs, bundled.
import { tsImport } from 'tsx/esm/api';

await tsImport('./season-read-worker.ts', import.meta.url);
