import type { SeasonProblem } from '@hunch/contract';
import { isNode, LineCounter, Parser, parseDocument } from 'yaml';

export type SeasonFormat = 'yaml' | 'json';

/** A document read from text, with where each of its paths sits in that text. */
export interface SeasonText {
  value: unknown;
  /** Line and column (1-based) of the value at `path`, or of its nearest ancestor present. */
  locate(path: string): { line: number; column: number } | undefined;
}

// An anchor used over and over is how a tiny YAML file expands to gigabytes ("billion laughs").
const MAX_ALIASES = 100;

/**
 * A season document nests about 10 levels (series, games, questions, choices). The YAML composer
 * and `toJS` recurse once per level, and near the end of the stack V8 compiling a regular
 * expression fails as a fatal out-of-memory error, which no catch sees: a 6 KB file of brackets
 * ended the server. So nesting is measured first, by loops, and a deep file is refused.
 */
export const SEASON_MAX_DEPTH = 32;
const TOO_DEEP = `The document could not be read: it is nested too deeply (more than ${SEASON_MAX_DEPTH} levels; a season file needs about 10)`;

/** The deepest nesting of collections in a parsed JSON value, by a loop. */
function valueDepth(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 1]];
  for (let top = stack.pop(); top; top = stack.pop()) {
    const [v, depth] = top;
    if (typeof v !== 'object' || v === null) continue;
    max = Math.max(max, depth);
    if (max > SEASON_MAX_DEPTH) return max;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return max;
}

/** One token of yaml's syntax tree (its CST, from the public Parser) as far as nesting goes. */
interface CstNode {
  items?: { key?: unknown; value?: unknown }[];
  value?: unknown;
}

/** The deepest nesting of collections in YAML text, from yaml's syntax tree, which it builds by loops. */
function yamlDepth(text: string): number {
  let max = 0;
  const stack: [CstNode, number][] = [];
  for (const token of new Parser().parse(text)) {
    if (token.type === 'document' && token.value) stack.push([token.value as CstNode, 1]);
  }
  for (let top = stack.pop(); top; top = stack.pop()) {
    const [node, depth] = top;
    if (!Array.isArray(node.items)) continue;
    max = Math.max(max, depth);
    if (max > SEASON_MAX_DEPTH) return max;
    for (const item of node.items) {
      if (item.key && typeof item.key === 'object') stack.push([item.key as CstNode, depth + 1]);
      if (item.value && typeof item.value === 'object') stack.push([item.value as CstNode, depth + 1]);
    }
  }
  return max;
}

function yamlDocument(text: string) {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, {
    lineCounter,
    uniqueKeys: true,
    prettyErrors: false,
    // YAML 1.2's core schema: times stay text, `yes` stays text, no custom tags run.
    schema: 'core',
    merge: false,
  });
  return { doc, lineCounter };
}

/** Paths are written `series.0.games.2`: a sequence index is a number in the document. */
const segments = (path: string) =>
  path === '' ? [] : path.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p));

function locateIn({ doc, lineCounter }: ReturnType<typeof yamlDocument>, path: string) {
  const keys = segments(path);
  for (let n = keys.length; n >= 0; n--) {
    const node = doc.getIn(keys.slice(0, n), true);
    if (isNode(node) && node.range) {
      const { line, col } = lineCounter.linePos(node.range[0]);
      return { line, column: col };
    }
  }
  return undefined;
}

function atOffset(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

/** JSON's own parser, so a JSON file is held to JSON; a syntax error gets its line and column. */
function parseJson(text: string): { value: unknown } | { problem: SeasonProblem } {
  try {
    return { value: JSON.parse(text) };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const lineCol = /line (\d+) column (\d+)/.exec(message);
    const position = /position (\d+)/.exec(message);
    const where = lineCol
      ? { line: Number(lineCol[1]), column: Number(lineCol[2]) }
      : position
        ? atOffset(text, Number(position[1]))
        : atOffset(text, text.length);
    const reason = message.replace(/^JSON\.parse: /, '').replace(/ in JSON at position \d+.*$/, '');
    return {
      problem: {
        path: '',
        message: `JSON syntax error at line ${where.line}, column ${where.column}: ${reason}`,
        ...where,
      },
    };
  }
}

/** Reads a season document's text: every syntax error with its line and column, or the value. */
export function readSeasonText(
  text: string,
  format: SeasonFormat,
): SeasonText | { problems: SeasonProblem[] } {
  try {
    if (format === 'json') {
      const json = parseJson(text);
      if ('problem' in json) return { problems: [json.problem] };
      if (valueDepth(json.value) > SEASON_MAX_DEPTH) return { problems: [{ path: '', message: TOO_DEEP }] };
      // The positions come from reading the same text as YAML (JSON is YAML), on the first error only.
      let parsed: ReturnType<typeof yamlDocument> | undefined;
      return {
        value: json.value,
        locate: (path) => {
          parsed ??= yamlDocument(text);
          return parsed.doc.errors.length > 0 ? undefined : locateIn(parsed, path);
        },
      };
    }
    if (yamlDepth(text) > SEASON_MAX_DEPTH) return { problems: [{ path: '', message: TOO_DEEP }] };
    const { doc, lineCounter } = yamlDocument(text);
    if (doc.errors.length > 0) {
      // After one broken structure (an indent out of place, an unclosed bracket) the parser's next
      // errors mostly follow from it: one bad line gave 101. Independent ones (a key twice) before it
      // are kept; after it, the rest are counted, not listed.
      const broken = doc.errors.findIndex((e) => e.code !== 'DUPLICATE_KEY');
      const shown = broken === -1 ? doc.errors : doc.errors.slice(0, broken + 1);
      const more = doc.errors.length - shown.length;
      return {
        problems: shown.map((e, k) => {
          const { line, col } = lineCounter.linePos(e.pos[0]);
          const reason = e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
          const after =
            k === shown.length - 1 && more > 0
              ? ` (the ${more} ${more === 1 ? 'error' : 'errors'} the reader found after it may follow from this one: fix it first)`
              : '';
          return {
            path: '',
            message: `YAML syntax error at line ${line}, column ${col}: ${reason}${after}`,
            line,
            column: col,
          };
        }),
      };
    }
    const value = doc.toJS({ maxAliasCount: MAX_ALIASES });
    return { value, locate: (path) => locateIn({ doc, lineCounter }, path) };
  } catch (err) {
    // The parsers' own limits: too many aliases, or nesting deeper than the stack.
    const reason =
      err instanceof RangeError
        ? 'it is nested too deeply'
        : err instanceof Error
          ? err.message
          : String(err);
    return { problems: [{ path: '', message: `The document could not be read: ${reason}` }] };
  }
}
