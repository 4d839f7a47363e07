import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { serverNodeFlags } from './server-node-flags.mjs';

describe('server node flags', () => {
  it('runs GC on the main thread only when the server has one CPU', () => {
    expect(serverNodeFlags(1)).toEqual(['--single-threaded-gc']);
    expect(serverNodeFlags(2)).toEqual([]);
    expect(serverNodeFlags(16)).toEqual([]);
  });

  it('are flags this Node accepts', () => {
    const out = execFileSync(process.execPath, [...serverNodeFlags(1), '-e', 'console.log("ok")'], {
      encoding: 'utf8',
    });
    expect(out.trim()).toBe('ok');
  });
});
