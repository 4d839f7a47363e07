import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import preact from '@preact/preset-vite';
import { defineConfig, type Plugin, parseSync, runnerImport } from 'vite';
import { landingFiles } from '../scripts/first-screen';

// The API, uploaded images and sockets are served by the Node server; in dev Vite forwards them so the
// app stays same-origin (cookies and CSRF work exactly as in production).
const server = 'http://127.0.0.1:3000';

const here = fileURLToPath(new URL('.', import.meta.url));
const contractDir = path.resolve(here, '../contract/src');

/**
 * The libraries every screen runs on: one chunk that changes only when they do (decision 023).
 * Preact stands in for react and react-dom in the browser (decision 025).
 */
const FRAMEWORK = /[\\/]node_modules[\\/](preact|react-router|@tanstack|cookie|set-cookie-parser)[\\/]/;

/** Data a module can hold as a literal: no function, no class instance (a zod schema is one). */
function isPlainData(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (value === null || ['string', 'boolean', 'undefined'].includes(typeof value)) return true;
  if (value instanceof RegExp) return true;
  if (Array.isArray(value)) return value.every(isPlainData);
  if (typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value).every(isPlainData);
}

/** The literal of plain data (isPlainData), as JavaScript source. */
function literal(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value instanceof RegExp) return String(value);
  if (Array.isArray(value)) return `[${value.map(literal).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${literal(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Which contract file declares each exported name (`export const|function|class NAME`). */
async function declaringFiles(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const name of await readdir(contractDir)) {
    if (!name.endsWith('.ts') || name.endsWith('.test.ts') || name === 'index.ts') continue;
    const file = path.join(contractDir, name);
    const source = await readFile(file, 'utf8');
    for (const m of source.matchAll(/^export\s+(?:async\s+)?(?:const|let|function\*?|class)\s+([\w$]+)/gm)) {
      files.set(m[1] as string, file);
    }
  }
  return files;
}

/**
 * The contract as the browser build sees it (decision 023). The route table's entries hold zod
 * schemas, and zod (about 25 KB gzip) would be in the first screen of every page if the table came
 * as it is. So, written from the contract itself at each build: `httpRoutes` with each entry's plain
 * fields (method, path, body kind...) and no schemas; every other plain value (limits, messages) as
 * a literal; `successSchema` answering with the route's real schema once the full table, loaded at
 * start beside the first screen, is in; and every other export (schemas, functions) taken from the
 * file that declares it, so zod arrives only with the screens that check input themselves.
 */
function contractForTheBrowser(): Plugin {
  const id = '\0hunch:contract';
  let code = '';
  return {
    name: 'hunch:contract-for-the-browser',
    apply: 'build',
    // Before Vite's own resolver, which would find the package.
    enforce: 'pre',
    async buildStart() {
      const index = path.join(contractDir, 'index.ts');
      const { module } = await runnerImport<Record<string, unknown>>(index);
      const files = await declaringFiles();
      const at = (file: string) => JSON.stringify(file);
      const lines = [
        `import { successSchema as schemaOf } from ${at(path.join(contractDir, 'route-def.ts'))};`,
        // Started now: the first answers need it, and it comes while the first screen renders.
        `const full = import(${at(path.join(contractDir, 'http-routes.ts'))});`,
      ];
      for (const [name, value] of Object.entries(module)) {
        if (name === 'httpRoutes') {
          const routes = value as Record<string, Record<string, unknown>>;
          const bare = Object.fromEntries(
            Object.entries(routes).map(([k, def]) => [
              k,
              Object.fromEntries(Object.entries(def).filter(([, v]) => isPlainData(v))),
            ]),
          );
          lines.push(`export const httpRoutes = ${literal(bare)};`);
          lines.push('const names = new Map(Object.entries(httpRoutes).map(([k, v]) => [v, k]));');
        } else if (name === 'successSchema') {
          lines.push(
            'export function successSchema(def) {',
            '  if (def.responses) return schemaOf(def);',
            '  return {',
            '    async parseAsync(value) {',
            '      const entry = (await full).httpRoutes[names.get(def)];',
            "      if (!entry) throw new Error(def.method + ' ' + def.path + ' is not an entry of httpRoutes');",
            '      return schemaOf(entry).parseAsync(value);',
            '    },',
            '  };',
            '}',
          );
        } else if (isPlainData(value)) {
          lines.push(`export const ${name} = ${literal(value)};`);
        } else {
          const file = files.get(name);
          if (!file)
            throw new Error(`@hunch/contract exports ${name}, which no file of contract/src declares`);
          lines.push(`export { ${name} } from ${at(file)};`);
        }
      }
      code = lines.join('\n');
    },
    resolveId(source, importer) {
      if (source === '@hunch/contract' && importer && !importer.startsWith(contractDir)) return id;
      return null;
    },
    load(loading) {
      return loading === id ? code : null;
    },
  };
}

/** react, react-dom and their scheduler: none of them may reach the browser next to Preact. */
const REACT_ITSELF = /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/;

/**
 * Stops the build when a module of react or react-dom is bundled (an import the preset's aliases
 * missed, a library resolving its own copy): two runtimes would be shipped, and hooks would run
 * against the wrong one (decision 025).
 */
function preactOnly(): Plugin {
  return {
    name: 'hunch:preact-only',
    apply: 'build',
    generateBundle() {
      const react = [...this.getModuleIds()].filter((id) => REACT_ITSELF.test(id));
      if (react.length > 0) {
        throw new Error(`React itself is in the bundle beside Preact (decision 025):\n${react.join('\n')}`);
      }
    },
  };
}

/** An ESTree node as the parser gives it: its type and its place in the source. */
interface AstNode {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}
const isNode = (value: unknown): value is AstNode =>
  typeof value === 'object' && value !== null && typeof (value as AstNode).type === 'string';

/**
 * Makes every top-level declaration of the contract's files removable in the browser build: its
 * value is computed in a `@__PURE__` arrow called at once, `const x = (() => (value))()`, which runs
 * the same but tells the bundler that nothing happens unless `x` is used. The contract only declares
 * (decision 023); without this the bundler keeps what it cannot prove pure (`schema.extend(...)`,
 * `other.shape.field`), and with it zod, in every chunk that uses one plain function of the same
 * file: the game page's `gameNamespace` from live.ts brought 25 KB (decision 025).
 */
function contractDeclarationsArePure(): Plugin {
  return {
    name: 'hunch:contract-declarations-are-pure',
    apply: 'build',
    transform(code, id) {
      if (!id.startsWith(contractDir) || !/\.ts$/.test(id)) return null;
      const { program } = parseSync(id, code, { lang: 'js' });
      const values: AstNode[] = [];
      for (const statement of program.body as unknown as AstNode[]) {
        const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
        if (!isNode(declaration) || declaration.type !== 'VariableDeclaration') continue;
        for (const d of declaration.declarations as AstNode[]) {
          // Literals and functions have nothing to run.
          if (isNode(d.init) && !/^(Literal|ArrowFunctionExpression|FunctionExpression)$/.test(d.init.type)) {
            values.push(d.init);
          }
        }
      }
      let out = code;
      for (const v of values.sort((a, b) => b.start - a.start)) {
        out = `${out.slice(0, v.start)}/* @__PURE__ */ (() => (${out.slice(v.start, v.end)}))()${out.slice(v.end)}`;
      }
      return { code: out, map: null };
    },
  };
}

/** The text types worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    // .vite/ holds the build manifest: read by the build tools, never served.
    if (entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else if (entry.isFile()) yield full;
  }
}

/**
 * Writes `x.br` (brotli, best quality) and `x.gz` (gzip, level 9) beside each text file of the
 * build, for the server to send as they are (@fastify/static's preCompressed): compressed once at
 * build time instead of at every request. A copy that saves under a tenth is not kept.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'hunch:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      // A build that failed before writing has nothing to compress.
      if (!existsSync(outDir)) return;
      for await (const file of filesUnder(outDir)) {
        if (!COMPRESSIBLE.test(file)) continue;
        const data = await readFile(file);
        const [br, gz] = await Promise.all([
          promisify(brotliCompress)(data, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            },
          }),
          promisify(gzip)(data, { level: constants.Z_BEST_COMPRESSION }),
        ]);
        if (br.length < data.length * 0.9) await writeFile(`${file}.br`, br);
        if (gz.length < data.length * 0.9) await writeFile(`${file}.gz`, gz);
      }
    },
  };
}

/**
 * Writes `.vite/preload.json` for the server (decision 025): the chunks each landing page loads
 * beyond the entry (scripts/first-screen.ts reads them from the manifest), and the full route table
 * every page's first answer waits for. The server names them in the index.html it sends for a path,
 * so the browser fetches them beside the entry instead of after it has run. A build whose routes
 * and LANDING_PAGES disagree still works, without hints, and says so.
 */
function preloadHints(): Plugin {
  let outDir = '';
  return {
    name: 'hunch:preload-hints',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      if (!existsSync(path.join(outDir, '.vite', 'manifest.json'))) return;
      let files: ReturnType<typeof landingFiles>;
      try {
        files = landingFiles(outDir);
      } catch (err) {
        console.warn(`hunch: no preload hints written: ${(err as Error).message}`);
        return;
      }
      const hints = {
        all: files.beside,
        pages: files.screens.map((s) => ({
          path: s.path,
          files: s.files.filter((f) => !files.entry.includes(f)),
        })),
      };
      await writeFile(path.join(outDir, '.vite', 'preload.json'), JSON.stringify(hints));
    },
  };
}

export default defineConfig({
  // Pinned to this folder so the build works whether it is started from web/ or from the repo root.
  root: here,
  plugins: [
    // Preact with its React compatibility layer in place of react and react-dom, in the build and in
    // `vite` dev alike (decision 025): react-dom alone is 66 KB gzip, Preact and compat about 11 KB,
    // which is what brings every first screen under 100 KB. The code keeps importing 'react' and is
    // type-checked against React's types; the preset aliases react, react-dom and the JSX runtime.
    // No prerendering: the server sends one index.html for every path.
    preact({ prerender: { enabled: false } }),
    preactOnly(),
    contractForTheBrowser(),
    contractDeclarationsArePure(),
    precompress(),
    preloadHints(),
  ],
  build: {
    outDir: 'dist',
    // /assets/* belongs to the server's images (communities, users, games); bundles go elsewhere.
    assetsDir: 'static',
    emptyOutDir: true,
    // dist/.vite/manifest.json: the chunks each screen loads, for the first-screen figures
    // (scripts/first-screen.ts, npm run bench -- web).
    manifest: true,
    rolldownOptions: {
      treeshake: {
        // The contract only declares: a file none of whose exports a chunk uses is left out of it,
        // and an unused declaration is dropped (contractDeclarationsArePure), so zod comes only where
        // a schema is used. Not `manualPureFunctions: ['z']`: it names every function called `z` in
        // every module pure, and minified libraries have them (Preact's style setter is one).
        moduleSideEffects: (id) => (id.startsWith(contractDir) ? false : undefined),
      },
      output: {
        codeSplitting: {
          groups: [{ name: 'framework', test: FRAMEWORK, priority: 10 }],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': server,
      '/assets': server,
      '/socket.io': { target: server, ws: true },
    },
  },
});
