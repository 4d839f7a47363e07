import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Plugin, parseSync, runnerImport } from 'vite';
import { answerCheckFile, CHECK_CHUNKS_FILE } from './first-screen.ts';

// How the web build sees @hunch/contract (decisions 023, 025, 031): Vite plugins used by
// web/vite.config.ts, kept here beside the first-screen figures that read what they produce.

const contractDir = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../contract/src');

/**
 * Which chunk each answer check goes to, by module id (filled at buildStart): 'checks' for the
 * accounts' answers, 'game-checks' for those whose schemas come from other files (games,
 * communities), 'host-checks' for the hosts' routes (access host or admin, or under /api/host/).
 */
const checkChunk = new Map<string, 'checks' | 'game-checks' | 'host-checks'>();
const ACCOUNT_SCHEMAS = /[\\/]node_modules[\\/]zod[\\/]|[\\/]contract[\\/]src[\\/](text|accounts)\.ts$/;
const inChunk = (name: string) => (id: string) => checkChunk.get(id) === name;

/**
 * How the answer checks are bundled (decision 031): a few chunks, not one per route and per
 * contract file (over HTTP/1.1 a page's requests queue six at a time, each small file one more
 * round trip). zod, the accounts' schemas and their checks in one, which every page loads (who is
 * signed in) and the register form needs; the players' other answers in a second; the hosts' in a
 * third, so a player's page does not evaluate the season and console schemas. For
 * web/vite.config.ts's codeSplitting, in this order of priority: a schema goes with the first.
 */
export const checkGroups = [
  { name: 'checks', test: (id: string) => ACCOUNT_SCHEMAS.test(id) || inChunk('checks')(id), priority: 8 },
  { name: 'game-checks', test: inChunk('game-checks'), priority: 7 },
  { name: 'host-checks', test: inChunk('host-checks'), priority: 6 },
];

/** Modules of the contract the entry itself needs (route URLs): never bundled with the checks. */
export const isEntryContract = (id: string): boolean =>
  id === '\0hunch:contract' || id === path.join(contractDir, 'route-def.ts');

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

/** The contract's own source files (not its tests, not the index that re-exports them). */
async function contractFiles(): Promise<string[]> {
  const names = await readdir(contractDir);
  return names
    .filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts') && n !== 'index.ts')
    .map((n) => path.join(contractDir, n));
}

/** Which contract file declares each exported name (`export const|function|class NAME`). */
async function declaringFiles(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const file of await contractFiles()) {
    const source = await readFile(file, 'utf8');
    for (const m of source.matchAll(/^export\s+(?:async\s+)?(?:const|let|function\*?|class)\s+([\w$]+)/gm)) {
      files.set(m[1] as string, file);
    }
  }
  return files;
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

/** Every node under `node`, depth first. */
function* nodesUnder(node: AstNode): Generator<AstNode> {
  yield node;
  for (const value of Object.values(node)) {
    for (const child of Array.isArray(value) ? value : [value]) if (isNode(child)) yield* nodesUnder(child);
  }
}

const keyName = (p: AstNode): string | undefined => {
  const key = p.key as AstNode & { name?: string; value?: unknown };
  return key?.type === 'Identifier' ? key.name : typeof key?.value === 'string' ? key.value : undefined;
};

/**
 * An answer check's module: `export default` the entry's `responses`, with only what that
 * expression uses from its file: the imports it names (one specifier each) and the file's top-level
 * constants it reads, with theirs, in the file's order. The bundler keeps every export of a module
 * loaded with import(), and follows every import of a module it groups, so a check that copied its
 * whole file would bring the whole table's schemas with it.
 */
function checkSource(program: AstNode, source: string, responses: AstNode): { code: string; from: string[] } {
  const imports = new Map<string, string>();
  const sources = new Map<string, string>();
  const locals = new Map<string, AstNode>();
  const order: string[] = [];
  for (const statement of program.body as AstNode[]) {
    if (statement.type === 'ImportDeclaration' && statement.importKind !== 'type') {
      const from = JSON.stringify((statement.source as AstNode & { value: string }).value);
      for (const spec of statement.specifiers as (AstNode & { local: { name: string } })[]) {
        if (spec.importKind === 'type') continue;
        const local = spec.local.name;
        const imported = spec.imported as (AstNode & { name?: string; value?: string }) | undefined;
        const what =
          spec.type === 'ImportDefaultSpecifier'
            ? local
            : spec.type === 'ImportNamespaceSpecifier'
              ? `* as ${local}`
              : `{ ${imported?.name ?? imported?.value} as ${local} }`;
        imports.set(local, `import ${what} from ${from};`);
        sources.set(local, JSON.parse(from) as string);
      }
    }
    const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
    if (!isNode(declaration) || declaration.type !== 'VariableDeclaration') continue;
    for (const d of declaration.declarations as (AstNode & { id: AstNode & { name?: string } })[]) {
      if (d.id.type === 'Identifier' && d.id.name && isNode(d.init)) {
        locals.set(d.id.name, d.init);
        order.push(d.id.name);
      }
    }
  }
  const used = new Set<string>();
  const visit = (node: AstNode) => {
    for (const n of nodesUnder(node)) {
      const name = (n as AstNode & { name?: string }).name;
      if (n.type !== 'Identifier' || !name || used.has(name)) continue;
      if (imports.has(name)) used.add(name);
      const init = locals.get(name);
      if (init) {
        used.add(name);
        visit(init);
      }
    }
  };
  visit(responses);
  const text = (n: AstNode) => source.slice(n.start, n.end);
  const code = [
    ...[...imports].filter(([name]) => used.has(name)).map(([, line]) => line),
    ...order
      .filter((name) => used.has(name))
      .map((name) => `const ${name} = ${text(locals.get(name) as AstNode)};`),
    `export default (${text(responses)});`,
    '',
  ].join('\n');
  return {
    code,
    from: [...new Set([...sources].filter(([name]) => used.has(name)).map(([, from]) => from))],
  };
}

/** A route's success answer as its table writes it: the file, and its answer check's module. */
interface RouteResponses {
  file: string;
  check: { code: string; from: string[] };
}

/**
 * Where each route of `routes` writes its `responses`: the property `name: route({... path,
 * responses ...})` (defineRoute, imported as route) whose path is the route's. Stops the build when
 * a route has no such entry, or more than one.
 */
async function routeResponses(
  routes: Record<string, { path: string }>,
): Promise<Map<string, RouteResponses>> {
  const found = new Map<string, RouteResponses[]>();
  for (const file of await contractFiles()) {
    const source = await readFile(file, 'utf8');
    if (!/\b(defineRoute|route)\(/.test(source)) continue;
    const { program } = parseSync(file, source, { lang: 'ts' });
    for (const node of nodesUnder(program as unknown as AstNode)) {
      if (node.type !== 'Property' || !isNode(node.value) || node.value.type !== 'CallExpression') continue;
      const call = node.value as AstNode & { callee: AstNode & { name?: string }; arguments: AstNode[] };
      const [arg] = call.arguments;
      if (!['route', 'defineRoute'].includes(call.callee.name ?? '') || arg?.type !== 'ObjectExpression')
        continue;
      const name = keyName(node);
      const props = (arg.properties as AstNode[]).filter((p) => p.type === 'Property');
      const prop = (key: string) => props.find((p) => keyName(p) === key)?.value as AstNode | undefined;
      const routePath = prop('path') as (AstNode & { value?: unknown }) | undefined;
      const responses = prop('responses');
      if (!name || !responses || routes[name]?.path !== routePath?.value) continue;
      const check = checkSource(program as unknown as AstNode, source, responses);
      found.set(name, [...(found.get(name) ?? []), { file, check }]);
    }
  }
  const out = new Map<string, RouteResponses>();
  for (const name of Object.keys(routes)) {
    const at = found.get(name) ?? [];
    if (at.length !== 1)
      throw new Error(`route ${name}: ${at.length} entries of contract/src declare its answer`);
    out.set(name, at[0] as RouteResponses);
  }
  return out;
}

/**
 * The contract as the browser build sees it (decisions 023, 031). The route table's entries hold
 * zod schemas, and zod (about 25 KB gzip) would be in the first screen of every page if the table
 * came as it is. So, written from the contract itself at each build: `httpRoutes` with each entry's
 * plain fields (method, path, body kind...) and no schemas; every other plain value (limits,
 * messages) as a literal; every other export (schemas, functions) taken from the file that declares
 * it, so zod arrives only with the screens that check input themselves; and `successSchema`
 * answering with the route's own success schema from a module of that route alone,
 * `contract/src/_check-<route>.ts` (checkSource: `export default` the entry's `responses`, with
 * what it uses of its file), loaded with import(), bundled as checkGroups says. A page evaluates
 * zod and the answers' schemas, not the whole table with every route's request schemas (and the
 * season's). `successSchema(def)` starts loading the check, so a caller asks for it before sending
 * the request, and it travels beside the answer.
 */
export function contractForTheBrowser(): Plugin {
  const id = '\0hunch:contract';
  let code = '';
  const checks = new Map<string, string>();
  return {
    name: 'hunch:contract-for-the-browser',
    apply: 'build',
    // Before Vite's own resolver, which would find the package.
    enforce: 'pre',
    async buildStart() {
      const index = path.join(contractDir, 'index.ts');
      const { module } = await runnerImport<Record<string, unknown>>(index);
      const files = await declaringFiles();
      const routes = module.httpRoutes as Record<string, Record<string, unknown> & { path: string }>;
      checks.clear();
      checkChunk.clear();
      for (const [name, { check }] of await routeResponses(routes)) {
        const id = path.join(contractDir, answerCheckFile(name));
        checks.set(id, check.code);
        const def = routes[name];
        const host = ['host', 'admin'].includes(String(def?.access)) || def?.path.startsWith('/api/host/');
        const accounts = check.from.every((f) => ['zod', './text', './accounts'].includes(f));
        checkChunk.set(id, host ? 'host-checks' : accounts ? 'checks' : 'game-checks');
      }
      const at = (file: string) => JSON.stringify(file);
      const lines = [
        `import { successSchema as schemaOf } from ${at(path.join(contractDir, 'route-def.ts'))};`,
      ];
      for (const [name, value] of Object.entries(module)) {
        if (name === 'httpRoutes') {
          const bare = Object.fromEntries(
            Object.entries(routes).map(([k, def]) => [
              k,
              Object.fromEntries(Object.entries(def).filter(([, v]) => isPlainData(v))),
            ]),
          );
          lines.push(`export const httpRoutes = ${literal(bare)};`);
          lines.push('const names = new Map(Object.entries(httpRoutes).map(([k, v]) => [v, k]));');
          lines.push(
            'const checks = {',
            ...Object.keys(routes).map(
              (k) =>
                `  ${JSON.stringify(k)}: () => import(${at(path.join(contractDir, answerCheckFile(k)))}),`,
            ),
            '};',
          );
        } else if (name === 'successSchema') {
          lines.push(
            // One load per route; a failed one is asked again next time.
            'const loaded = new Map();',
            'function responsesOf(name) {',
            '  let p = loaded.get(name);',
            '  if (!p) {',
            '    p = checks[name]().then((m) => m.default);',
            '    p.catch(() => loaded.delete(name));',
            '    loaded.set(name, p);',
            '  }',
            '  return p;',
            '}',
            'export function successSchema(def) {',
            '  if (def.responses) return schemaOf(def);',
            '  const name = names.get(def);',
            '  const responses = name === undefined ? null : responsesOf(name);',
            '  return {',
            '    async parseAsync(value) {',
            "      if (!responses) throw new Error(def.method + ' ' + def.path + ' is not an entry of httpRoutes');",
            '      return schemaOf({ ...def, responses: await responses }).parseAsync(value);',
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
      if (checks.has(source)) return source;
      return null;
    },
    load(loading) {
      if (loading === id) return code;
      return checks.get(loading) ?? null;
    },
    generateBundle() {
      // Which chunk holds each route's check, for scripts/first-screen.ts (figures, preload hints).
      const chunks = Object.fromEntries(
        [...checkChunk].map(([check, chunk]) => [path.basename(check).replace(/^_check-|\.ts$/g, ''), chunk]),
      );
      this.emitFile({ type: 'asset', fileName: CHECK_CHUNKS_FILE, source: JSON.stringify(chunks) });
    },
  };
}

/**
 * Makes every top-level declaration of the contract's files removable in the browser build: its
 * value is computed in a `@__PURE__` arrow called at once, `const x = (() => (value))()`, which runs
 * the same but tells the bundler that nothing happens unless `x` is used. The contract only declares
 * (decision 023); without this the bundler keeps what it cannot prove pure (`schema.extend(...)`,
 * `other.shape.field`), and with it zod, in every chunk that uses one plain function of the same
 * file: the game page's `gameNamespace` from live.ts brought 25 KB (decision 025). The answer
 * checks (`_check-<route>.ts`, above) rely on it to keep only what their answer uses.
 */
export function contractDeclarationsArePure(): Plugin {
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
